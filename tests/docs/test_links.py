"""Every relative link in README.md and docs/**/*.md points at a file of the repository.

Anchors (`#pn-12`, `#L42`) are not checked; links to other sites (`https:`) are not followed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)


def links(text: str) -> list[str]:
    """The targets of the Markdown links in `text`, outside code."""
    return LINK.findall(CODE.sub("", text))


def is_relative(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(document: Path) -> None:
    broken = []
    for target in filter(is_relative, links(document.read_text(encoding="utf-8"))):
        path = (document.parent / target.split("#")[0]).resolve()
        if not path.exists() or not path.is_relative_to(ROOT):
            broken.append(target)
    assert not broken, f"{document.relative_to(ROOT)}: links to nothing in the repository: {broken}"


def test_no_document_points_outside_the_repository() -> None:
    outside = [
        (str(d.relative_to(ROOT)), m)
        for d in DOCUMENTS
        for m in re.findall(r"\.\./shared/\S*", d.read_text(encoding="utf-8"))
    ]
    assert not outside


def test_links_are_found_outside_code_only() -> None:
    assert links("see [a](a.md), `[b](b.md)`, [c](c.md#x)") == ["a.md", "c.md#x"]
    assert not is_relative("https://example.org") and not is_relative("#anchor")
    assert is_relative("docs/cards.md")
