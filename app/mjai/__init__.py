"""tenpai as an mjai bot: ``python -m app.mjai SEAT`` (see :mod:`app.mjai.bot`)."""
