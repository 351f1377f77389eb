"""A small JSON Schema (2020-12) checker for the subset the shipped deck schemas use.

jsonschema is not a dependency, so the schemas in appliance/decks/schema are checked against the code
with this. It knows exactly the keywords in KNOWN and refuses a schema using any other, so a schema
keyword can never be silently ignored.
"""

from __future__ import annotations

import re
from typing import Any

KNOWN = frozenset(
    {
        "$schema",
        "$id",
        "$defs",
        "$ref",
        "title",
        "description",
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "uniqueItems",
        "const",
        "enum",
        "pattern",
        "minLength",
        "maxLength",
    }
)
ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description"})


def keywords(schema: Any) -> set[str]:
    """Every keyword used anywhere in ``schema`` (property names excluded)."""
    found: set[str] = set()
    if isinstance(schema, dict):
        for key, value in schema.items():
            found.add(key)
            if key in ("properties", "$defs"):
                for sub in value.values():
                    found |= keywords(sub)
            elif key == "prefixItems":
                for sub in value:
                    found |= keywords(sub)
            elif key in ("items", "additionalProperties"):
                found |= keywords(value)
    return found


def _type_ok(value: Any, kind: str) -> bool:
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        return isinstance(value, list)
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    raise ValueError(f"type {kind!r} is not in the subset")


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def errors(schema: Any, value: Any, root: Any = None, at: str = "") -> list[str]:
    """Every place ``value`` breaks ``schema`` (empty: it validates)."""
    root = schema if root is None else root
    unknown = set(schema) - KNOWN
    if unknown:
        raise ValueError(f"schema keywords outside the subset: {sorted(unknown)}")
    found: list[str] = []
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            raise ValueError(f"only local $defs references are in the subset, got {ref!r}")
        found += errors(root["$defs"][ref.removeprefix("#/$defs/")], value, root, at)
    if "type" in schema and not _type_ok(value, schema["type"]):
        return [*found, f"{at}: not of type {schema['type']}"]
    if "const" in schema and not _equal(value, schema["const"]):
        found.append(f"{at}: not {schema['const']!r}")
    if "enum" in schema and not any(_equal(value, option) for option in schema["enum"]):
        found.append(f"{at}: not one of {schema['enum']}")
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            found.append(f"{at}: shorter than {schema['minLength']}")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            found.append(f"{at}: longer than {schema['maxLength']}")
        if "pattern" in schema and re.search(schema["pattern"], value) is None:
            found.append(f"{at}: does not match {schema['pattern']}")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                found.append(f"{at}.{key}: missing")
        for key, item in value.items():
            if key in properties:
                found += errors(properties[key], item, root, f"{at}.{key}")
            elif schema.get("additionalProperties") is False:
                found.append(f"{at}.{key}: not allowed")
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            found.append(f"{at}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            found.append(f"{at}: more than {schema['maxItems']} items")
        if schema.get("uniqueItems") and any(_equal(a, b) for i, a in enumerate(value) for b in value[i + 1 :]):
            found.append(f"{at}: items not unique")
        prefix = schema.get("prefixItems", [])
        for i, item in enumerate(value):
            if i < len(prefix):
                found += errors(prefix[i], item, root, f"{at}[{i}]")
            elif "items" in schema:  # 2020-12: items applies only after prefixItems
                found += errors(schema["items"], item, root, f"{at}[{i}]")
    return found
