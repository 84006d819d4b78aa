# SPDX-License-Identifier: Apache-2.0
"""The subset of Markdown that docs/reference.md uses, turned into man(7) roff.

Paragraphs, `-` and `1.` lists with indented continuation lines, fenced code blocks, pipe tables (each
row becomes a tagged paragraph: the first cell is the tag, the other cells follow as "header: value"),
headings (as .SS), and inline `code`, **bold**, *emphasis* and [links](target). Links to anchors keep
their text; links to other files keep their text and name the file. Used by man_pages.py.
"""
import re

_TABLE_SPLIT = re.compile(r"(?<!\\)\|")


def escape(text):
    """Escapes roff's special characters in plain text (no inline markup)."""
    return text.replace("\\", "\\e").replace("-", "\\-")


def _guard(line):
    """A roff text line must not start with a control character or a space."""
    line = line.lstrip(" ")
    return "\\&" + line if line.startswith((".", "'")) else line


def inline(text):
    """Markdown inline markup to roff font changes, with the text escaped."""
    out = []
    pos = 0
    pattern = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)]+)\)|(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])")
    for m in pattern.finditer(text):
        out.append(escape(text[pos:m.start()]))
        code, bold, link_text, target, emph = m.groups()
        if code is not None:
            # A long span (a URL) may break after a slash: \: is a break point that prints nothing.
            text_code = escape(code).replace("/", "/\\:") if len(code) > 40 else escape(code)
            out.append("\\fB" + text_code + "\\fR")
        elif bold is not None:
            out.append("\\fB" + inline(bold) + "\\fR")
        elif link_text is not None:
            out.append(inline(link_text))
            if not target.startswith("#") and not target.startswith("http"):
                out.append(" (" + escape(target.split("#")[0]) + ")")
            elif target.startswith("http"):
                out.append(" <" + escape(target) + ">")
        else:
            out.append("\\fI" + inline(emph) + "\\fR")
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out).replace("\\|", "|")


def table_rows(lines):
    """The header and rows of a pipe table, cells stripped, escaped pipes kept as text."""
    rows = []
    for line in lines:
        cells = [c.strip().replace("\\|", "|") for c in _TABLE_SPLIT.split(line.strip().strip("|"))]
        if all(re.fullmatch(r":?-+:?", c) for c in cells if c):
            continue
        rows.append(cells)
    return rows[0], rows[1:]


def _table(lines):
    header, rows = table_rows(lines)
    out = []
    for row in rows:
        out.append(".TP")
        out.append(_guard(inline(row[0].replace("|", "\\|"))))
        parts = []
        for name, cell in zip(header[1:], row[1:]):
            if cell and cell != "—":
                parts.append(f"{name}: {cell}")
        out.append(_guard(inline("; ".join(parts).replace("|", "\\|")) if parts else "\\&"))
    return out


def convert(markdown, heading=".SS"):
    """roff for a block of Markdown; headings of any level become `heading` lines."""
    lines = markdown.split("\n")
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if line.startswith("```"):
            j = i + 1
            out += [".PP", ".nf", ".RS 2"]
            while j < len(lines) and not lines[j].startswith("```"):
                out.append("\\&" + escape(lines[j]))
                j += 1
            out += [".RE", ".fi"]
            i = j + 1
            continue
        if line.startswith("#"):
            title = line.lstrip("#").strip()
            out.append(f'{heading} "{inline(title)}"')
            i += 1
            continue
        if line.lstrip().startswith("|"):
            j = i
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            out += _table(lines[i:j])
            i = j
            continue
        item = re.match(r"^(\s*)(- |\d+\. )(.*)", line)
        if item:
            j = i + 1
            text = [item.group(3)]
            while j < len(lines) and lines[j].strip() and lines[j].startswith(" ") \
                    and not re.match(r"^\s*(- |\d+\. )", lines[j]):
                text.append(lines[j].strip())
                j += 1
            mark = "\\(bu 2" if item.group(2) == "- " else item.group(2).strip() + " 4"
            out += [f".IP {mark}", _guard(inline(" ".join(text)))]
            i = j
            continue
        j = i
        text = []
        while j < len(lines) and lines[j].strip() and not lines[j].startswith(("```", "#")) \
                and not lines[j].lstrip().startswith("|") and not re.match(r"^\s*(- |\d+\. )", lines[j]):
            text.append(lines[j].strip())
            j += 1
        out += [".PP", _guard(inline(" ".join(text)))]
        i = j
    return "\n".join(out)


def sections(markdown):
    """(level, title, body) of every heading of a Markdown document, body up to the next heading of
    the same or a higher level; code blocks are not searched for headings."""
    lines = markdown.split("\n")
    heads = []
    fenced = False
    for n, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"^#{1,6} ", line):
            heads.append((n, len(line) - len(line.lstrip("#")), line.lstrip("#").strip()))
    out = []
    for k, (n, level, title) in enumerate(heads):
        end = next((m for m, lv, _ in heads[k + 1:] if lv <= level), len(lines))
        out.append((level, title, "\n".join(lines[n + 1:end]).strip("\n")))
    return out
