from ninja import Router


def make_router(**kwargs) -> Router:
    """A Router that answers camelCase aliases (decisions.md §1)."""
    kwargs.setdefault("by_alias", True)
    return Router(**kwargs)
