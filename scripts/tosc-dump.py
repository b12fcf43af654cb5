#!/usr/bin/env python3
"""Read a TouchOSC layout (.tosc) with tosclib (PyPI), the third-party reader, and print every
control's OSC messages as JSON: what the tests check against the address space."""
import json
import sys

import tosclib


def text(element, tag):
    found = element.find(tag)
    return found.text if found is not None else None


def partials(osc, tag):
    return [{k: text(p, k) for k in ("type", "conversion", "value", "scaleMin", "scaleMax")}
            for p in osc.findall(f"./{tag}/partial")]


def walk(node, page, out):
    control = tosclib.ElementTOSC(node)
    kind = node.get("type")
    name = control.getPropertyValue("name").text if control.hasProperty("name") else ""
    if kind == "GROUP" and control.hasProperty("tabLabel"):
        page = control.getPropertyValue("tabLabel").text
    for osc in control.messages.findall("osc"):
        out.append({
            "type": kind, "name": name, "page": page,
            "send": text(osc, "send") == "1", "receive": text(osc, "receive") == "1",
            "trigger": text(osc, "./triggers/trigger/var"), "condition": text(osc, "./triggers/trigger/condition"),
            "path": partials(osc, "path"), "arguments": partials(osc, "arguments"),
        })
    for child in control.children:
        walk(child, page, out)


root = tosclib.load(sys.argv[1])
controls = []
walk(root[0], None, controls)
json.dump(controls, sys.stdout)
