"""Cells of exported spreadsheets (CSV and XLSX) that no spreadsheet program will run as a formula.

OWASP's CSV-injection guidance: a text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return may be read as a formula by Excel, LibreOffice or Google Sheets (``=HYPERLINK(...)``,
``+cmd|' /C calc'!A0``). Every text value is prefixed with ``'`` in that case, which the programs show
as text. Numbers (hours, counts; negative ones included) are not text and stay numbers. In XLSX files
text cells are also written with the string type, never as formulas (ADR 0004).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.worksheet.worksheet import Worksheet

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: Any) -> Any:
    """``value`` with a leading ``'`` when it is text a spreadsheet could take for a formula; other values as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def neutralise_row(values: list) -> list:
    """:func:`neutralise` applied to every cell of a row."""
    return [neutralise(v) for v in values]


def xlsx_cell(ws: Worksheet, value: Any) -> WriteOnlyCell:
    """A write-only openpyxl cell for ``value``: text is neutralised and typed as a string (``"s"``), so
    openpyxl never stores it as a formula; numbers stay numeric."""
    from openpyxl.cell import WriteOnlyCell

    cell = WriteOnlyCell(ws, value=neutralise(value))
    if isinstance(value, str):
        cell.data_type = "s"
    return cell
