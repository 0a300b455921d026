"""Schemas of study plans, study plan units, block groups and linked block groups.

docs/behaviour/block-groups.md §1 (limits); docs/behaviour/api.md §1 (camelCase JSON); docs/behaviour/errors.md §2
(the 400 shape); docs/behaviour/hours.md §4 (hours). Hours are decimals with 2 places (precision 6) in the database and JSON numbers
in answers. Every ``*Out`` with ``updatedAt`` sends it with microsecond precision (usable as ``If-Match``).

A module per concern, imported from directly: :mod:`.study_plans` (plans and their units),
:mod:`.block_groups` (groups, their assigned plans, scheduling information and hour reconciliation),
:mod:`.linked_groups`; the field types they share are in :mod:`.fields`.
"""
