"""Request and response bodies, one module per endpoint family.

- :mod:`~app.api.schemas.common`: tiles, melds, rules and situations as every request carries them;
- :mod:`~app.api.schemas.hand`: ``/win``, ``/ting``, ``/shanten`` and their batches;
- :mod:`~app.api.schemas.score`: ``/score`` and ``/score/batch``;
- :mod:`~app.api.schemas.discard`: ``/discard``;
- :mod:`~app.api.schemas.simulate`: ``/simulate``.

Data flows one way: JSON -> a model here -> core values (:mod:`app.api.questions`) -> the core ->
a response model here.  The models never see core internals beyond the values they render.
"""
