from typing import Any

from ninja import Router


def make_router(**kwargs: Any) -> Router:  # Router's own options (tags, auth, ...), passed through
    """A Router that answers camelCase aliases (docs/behaviour/api.md §1)."""
    kwargs.setdefault("by_alias", True)
    return Router(**kwargs)
