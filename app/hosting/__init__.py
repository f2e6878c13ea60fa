"""Where hosted tables live: a store holds every table's state, events, decisions and deadline.

A hosted table keeps nothing in a process. ``store.py`` states the contract (``TableStore``) and
picks an implementation from ``TENPAI_TABLE_STORE`` (``open_store``): an embedded SQLite file
(``sqlite_store.py``) for one machine, or Redis (``redis_store.py``) for replicas that share tables.
"""
