"""Typed errors of the self-play package.

Bad options are :class:`~app.core.errors.TenpaiError` values (``ValueError``
subclasses with a stable ``code``), like the core's.  A missing optional
dependency is an ``ImportError`` that names the extra to install.

>>> error = MissingExtra("ray", extra="ray", purpose="the Ray backend")
>>> isinstance(error, ImportError), error.code, str(error)
(True, 'missing_extra', "the Ray backend needs ray: pip install 'tenpai[ray]'")
"""

from __future__ import annotations

from app.core.errors import TenpaiError


class InvalidRunOption(TenpaiError):
    """A self-play option out of range: no games, no workers, an unknown backend or parameter."""

    code = "invalid_run_option"


class MissingExtra(ImportError):
    """An optional dependency that is not installed, with the extra that provides it."""

    code = "missing_extra"

    def __init__(self, module: str, *, extra: str, purpose: str) -> None:
        super().__init__(f"{purpose} needs {module}: pip install 'tenpai[{extra}]'", name=module)
        self.extra = extra
