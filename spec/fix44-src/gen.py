#!/usr/bin/env python3
"""Generates spec/FIX44.xml (QuickFIX XML format) from the compact FIX 4.4
fact tables in this directory: fields.txt, components.txt, messages.txt.

The tables were written by hand from the FIX 4.4 specification; this script
reads nothing else. Run from anywhere: `python3 spec/fix44-src/gen.py`;
`--check` only verifies that spec/FIX44.xml matches the tables.
"""
import re
import sys
from pathlib import Path
from xml.sax.saxutils import quoteattr

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "FIX44.xml"


def die(msg):
    sys.exit(f"gen.py: {msg}")


def read_fields():
    """[(tag, name, type, [(value, desc)] or '=tag' or 'MSGTYPES')]"""
    entries = []
    for lineno, raw in enumerate((HERE / "fields.txt").read_text().splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        toks = raw.split()
        if raw[0].isspace():
            if not entries:
                die(f"fields.txt:{lineno}: continuation without a field")
            entries[-1][3].extend(toks)
            continue
        if len(toks) < 3:
            die(f"fields.txt:{lineno}: expected TAG NAME TYPE")
        entries.append([int(toks[0]), toks[1], toks[2], toks[3:]])
    return entries


def parse_layouts(fname):
    """[(kind, head tokens, members)] where a member is
    ('field', name, req) | ('component', name, req) | ('group', name, req, members)."""
    defs = []
    text = (HERE / fname).read_text()
    chunks = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("//"):
            continue
        if raw[0].isspace():
            if not chunks:
                die(f"{fname}:{lineno}: continuation without a definition")
            chunks[-1][1].append(raw)
        else:
            chunks.append((lineno, [raw]))
    tok_re = re.compile(r"#\w+\*?\{|\}|@?\w+\*?|\S")
    for lineno, lines in chunks:
        body = " ".join(lines)
        head, sep, rest = body.partition(":")
        if not sep:
            die(f"{fname}:{lineno}: missing ':'")
        head = head.split()
        stack = [[]]
        for tok in tok_re.findall(rest):
            req = tok.rstrip("{").endswith("*")
            name = tok.rstrip("{").rstrip("*")
            if tok.endswith("{"):
                stack.append([])
                stack[-2].append(("group", name[1:], req, stack[-1]))
            elif tok == "}":
                if len(stack) == 1:
                    die(f"{fname}:{lineno}: unbalanced '}}'")
                stack.pop()
            elif tok.startswith("@"):
                stack[-1].append(("component", name[1:], req))
            elif re.fullmatch(r"\w+", name):
                stack[-1].append(("field", name, req))
            else:
                die(f"{fname}:{lineno}: bad token {tok!r}")
        if len(stack) != 1:
            die(f"{fname}:{lineno}: unclosed group")
        defs.append((head, stack[0]))
    return defs


# Message names whose capitalisation does not split into words by itself.
SNAKE_OVERRIDES = {"XMLnonFIX": "XML_NON_FIX"}


def snake(name):
    if name in SNAKE_OVERRIDES:
        return SNAKE_OVERRIDES[name]
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    return s.upper()


def emit_members(out, members, indent, field_names, comp_names):
    pad = " " * indent
    for m in members:
        req = "Y" if m[2] else "N"
        if m[0] == "field":
            if m[1] not in field_names:
                die(f"unknown field {m[1]}")
            out.append(f'{pad}<field name="{m[1]}" required="{req}"/>')
        elif m[0] == "component":
            if m[1] not in comp_names:
                die(f"unknown component {m[1]}")
            out.append(f'{pad}<component name="{m[1]}" required="{req}"/>')
        else:
            if m[1] not in field_names:
                die(f"unknown group counter {m[1]}")
            out.append(f'{pad}<group name="{m[1]}" required="{req}">')
            emit_members(out, m[3], indent + 2, field_names, comp_names)
            out.append(f"{pad}</group>")


def main():
    fields = read_fields()
    comps = parse_layouts("components.txt")
    msgs = parse_layouts("messages.txt")

    by_tag = {}
    for tag, name, _ty, _v in fields:
        if tag in by_tag:
            die(f"tag {tag} defined twice")
        by_tag[tag] = name
    field_names = {f[1] for f in fields}
    if len(field_names) != len(fields):
        die("a field name is defined twice")

    sections = {}
    components = []
    for head, members in comps:
        if head[0] in ("header", "trailer"):
            sections[head[0]] = members
        elif head[0] == "component":
            components.append((head[1], members))
        else:
            die(f"components.txt: unknown definition {head}")
    comp_names = {c[0] for c in components}
    messages = []
    for head, members in msgs:
        if head[0] != "message" or len(head) != 4:
            die(f"messages.txt: bad head {head}")
        messages.append((head[1], head[2], head[3], members))

    def values_of(entry, seen=()):
        tag, name, ty, spec = entry
        if spec == ["MSGTYPES"]:
            return [(m[1], snake(m[0])) for m in messages]
        vals = []
        for tok in spec:
            if tok == "YN":
                vals += [("Y", "YES"), ("N", "NO")]
            elif tok.startswith("="):
                src = next(f for f in fields if f[0] == int(tok[1:]))
                vals += values_of(src)
            else:
                v, sep, d = tok.partition(":")
                if not sep or not d:
                    die(f"field {tag}: bad value {tok!r}")
                vals.append((v, d))
        if len({v for v, _ in vals}) != len(vals):
            die(f"field {tag}: a value is listed twice")
        return vals

    out = ['<fix type="FIX" major="4" minor="4" servicepack="0">', "  <header>"]
    emit_members(out, sections["header"], 4, field_names, comp_names)
    out += ["  </header>", "  <trailer>"]
    emit_members(out, sections["trailer"], 4, field_names, comp_names)
    out += ["  </trailer>", "  <messages>"]
    for name, msgtype, cat, members in messages:
        out.append(f'    <message name="{name}" msgtype="{msgtype}" msgcat="{cat}">')
        emit_members(out, members, 6, field_names, comp_names)
        out.append("    </message>")
    out += ["  </messages>", "  <components>"]
    for name, members in components:
        out.append(f'    <component name="{name}">')
        emit_members(out, members, 6, field_names, comp_names)
        out.append("    </component>")
    out += ["  </components>", "  <fields>"]
    for entry in sorted(fields):
        tag, name, ty, _ = entry
        vals = values_of(entry)
        if not vals:
            out.append(f'    <field number="{tag}" name="{name}" type="{ty}"/>')
            continue
        out.append(f'    <field number="{tag}" name="{name}" type="{ty}">')
        for v, d in vals:
            out.append(f"      <value enum={quoteattr(v)} description={quoteattr(d)}/>")
        out.append("    </field>")
    out += ["  </fields>", "</fix>", ""]
    text = "\n".join(out)
    if "--check" in sys.argv[1:]:
        if not OUT.exists() or OUT.read_text() != text:
            die(f"{OUT} is out of date; run {Path(__file__).name} without --check")
        print(f"{OUT} is up to date")
        return
    OUT.write_text(text)
    print(f"wrote {OUT}: {len(fields)} fields, {len(messages)} messages, "
          f"{len(components)} components")


if __name__ == "__main__":
    main()
