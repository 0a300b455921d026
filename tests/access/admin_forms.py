"""The Django admin's change forms as a browser submits them: the tests post the admin's own HTML forms
(support staff's write path) rather than calling the model."""

from __future__ import annotations

from html.parser import HTMLParser


class FormFields(HTMLParser):
    """The fields a browser would submit from a page's POST form: inputs (checked boxes only), the
    selected option of each select, textareas."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and a.get("type", "text") not in ("submit", "button", "file", "image", "reset"):
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields[name] = a.get("value") or "on"
            else:
                self.fields[name] = a.get("value") or ""
        elif tag == "select" and name:
            self._select = name
            self.fields.setdefault(name, "")
        elif tag == "option" and self._select and "selected" in a:
            self.fields[self._select] = a.get("value") or ""
        elif tag == "textarea" and name:
            self._textarea = name
            self.fields[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.fields[self._textarea] += data


def form_fields(html: str) -> dict[str, str]:
    """The submitted fields of the (single) form of an admin page."""
    parser = FormFields()
    parser.feed(html)
    return parser.fields
