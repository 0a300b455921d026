"""Access that ends, ends everywhere (docs/adr/0023): the model's own save and delete hooks, so that every
path that changes a user or an organization (the API, the Django admin's forms, a shell, a management
command) has the same effect, after its transaction commits:

- a user deactivated or deleted: their sessions end (rows deleted) and every socket of theirs gets
  ``session_ended`` ``{"reason": "deactivated"}`` and closes;
- a user moved to another organization: their sockets close (the client reconnects into the new one);
- a user whose role changed: their sockets are re-scoped (:func:`realtime.events.rescope_user_sockets`:
  a demoted admin's sockets stop receiving admin-only events at once);
- an organization deactivated: its users' sessions end and every socket of the organization (its users'
  and its wall displays') closes with ``deactivated``.

Writes through ``QuerySet.update()`` send no signal and are not seen here (the sockets' periodic session
re-check remains the backstop); the project's writes all save rows.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver

from project.accounts.models import Organization, User
from project.core.sockets import close_group_sockets, close_user_sockets, org_group, rescope_user_sockets, user_group

USER_ACCESS_FIELDS = ("is_active", "role", "organization_id")
DEACTIVATED = "deactivated"


def _watched(update_fields: frozenset[str] | None, fields: tuple[str, ...]) -> bool:
    return update_fields is None or any(f in update_fields or f.removesuffix("_id") in update_fields for f in fields)


@receiver(pre_save, sender=User, dispatch_uid="access.user.pre_save")
def _user_before(sender: type[User], instance: User, raw: bool = False, update_fields: Any = None, **kwargs: Any) -> None:
    """Remember the stored access fields of a user about to be saved (one query; none when the save
    names other fields only, as a sign-in's ``last_login``)."""
    instance._access_before = None  # type: ignore[attr-defined]
    if raw or instance._state.adding or not _watched(update_fields, USER_ACCESS_FIELDS):
        return
    instance._access_before = User.objects.filter(pk=instance.pk).values_list(*USER_ACCESS_FIELDS).first()  # type: ignore[attr-defined]


@receiver(post_save, sender=User, dispatch_uid="access.user.post_save")
def _user_after(sender: type[User], instance: User, created: bool = False, raw: bool = False, **kwargs: Any) -> None:
    before = getattr(instance, "_access_before", None)
    instance._access_before = None  # type: ignore[attr-defined]
    if created or raw or before is None:
        return
    was_active, old_role, old_org = before
    if was_active and not instance.is_active:
        end_access(instance)
    elif not instance.is_active:
        return
    elif old_org != instance.organization_id:
        close_group_sockets(user_group(instance.pk), reason=None)  # reconnects into its new organization
    elif old_role != instance.role:
        rescope_user_sockets(instance.pk, instance.role)


@receiver(post_delete, sender=User, dispatch_uid="access.user.post_delete")
def _user_deleted(sender: type[User], instance: User, **kwargs: Any) -> None:
    end_access(instance)


def end_access(user: User) -> None:
    """End a user's sessions and close their sockets (``deactivated``), after commit."""
    from project.accounts.services.common import user_sessions_end

    user_sessions_end(user, reason=DEACTIVATED)
    close_user_sockets(user.pk, DEACTIVATED)


@receiver(pre_save, sender=Organization, dispatch_uid="access.organization.pre_save")
def _organization_before(
    sender: type[Organization], instance: Organization, raw: bool = False, update_fields: Any = None, **kwargs: Any
) -> None:
    instance._was_active = None  # type: ignore[attr-defined]
    if raw or instance._state.adding or not _watched(update_fields, ("is_active",)):
        return
    instance._was_active = Organization.objects.filter(pk=instance.pk).values_list("is_active", flat=True).first()  # type: ignore[attr-defined]


@receiver(post_save, sender=Organization, dispatch_uid="access.organization.post_save")
def _organization_after(sender: type[Organization], instance: Organization, raw: bool = False, **kwargs: Any) -> None:
    was_active = getattr(instance, "_was_active", None)
    instance._was_active = None  # type: ignore[attr-defined]
    if was_active and not instance.is_active:
        end_organization_access(instance)


def end_organization_access(org: Organization) -> None:
    """End the sessions of every user of ``org`` and close all its sockets (``deactivated``), after commit."""
    from project.accounts.services.common import user_sessions_end_many

    user_sessions_end_many(set(User.objects.filter(organization=org).values_list("pk", flat=True)), reason=DEACTIVATED)
    close_group_sockets(org_group(org.pk), reason=DEACTIVATED)
