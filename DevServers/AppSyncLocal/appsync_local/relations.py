"""Resolve relationship fields into ``Relation`` lookups (see the MIS association table).

- HAS_MANY: ``associatedWith`` names the child's foreign-key fields, or the child's model-typed
  belongsTo field, whose ``targetNames`` are then the foreign keys. Foreign keys pair with the
  parent's primary-key fields in order.
- HAS_ONE with ``targetNames`` (Gen1): the foreign keys live on the parent (``targetNames``) and
  point at the child's ``associatedWith`` fields.
- HAS_ONE with empty ``targetNames`` (Gen2 ``references``): like HAS_MANY, keys on the child.
- BELONGS_TO: ``targetNames`` on this model pair with the related model's primary-key fields.

Foreign-key fields that the MIS does not declare are added as implicit scalar fields, typed like
the key field they point at (the transformer adds them to the deployed type too).
"""

from __future__ import annotations

from .mis import FieldDef, ModelDef, Relation, SchemaFileError, did_you_mean


def resolve_relations(models: dict[str, ModelDef]) -> None:
    """Fill ``model.relations`` for every relationship field of every model."""
    for model in models.values():
        for field in list(model.fields.values()):
            if field.kind != "model":
                continue
            where = f"models.{model.name}.fields.{field.name}"
            if field.association is None:
                raise SchemaFileError(f"{where}: a model-typed field needs an 'association'")
            related = models[field.type_name]
            model.relations[field.name] = _relation(model, field, related, models, where)


def _relation(model: ModelDef, field: FieldDef, related: ModelDef, models: dict[str, ModelDef],
              where: str) -> Relation:
    association = field.association
    if association.kind == "BELONGS_TO":
        _ensure_fields(model, association.target_names, related, related.key_fields)
        return Relation(False, related.name, list(zip(related.key_fields, association.target_names)))
    if association.kind == "HAS_ONE" and association.target_names:
        for name in association.associated_with:
            if name not in related.fields:
                raise SchemaFileError(f"{where}.association.associatedWith: '{name}' is not a field of "
                                      f"{related.name}{did_you_mean(name, related.fields)}")
        _ensure_fields(model, association.target_names, related, association.associated_with)
        return Relation(False, related.name, list(zip(association.associated_with, association.target_names)))
    foreign_keys = _child_foreign_keys(association.associated_with, related, where)
    _ensure_fields(related, foreign_keys, model, model.key_fields)
    return Relation(association.kind == "HAS_MANY", related.name, list(zip(foreign_keys, model.key_fields)))


def _child_foreign_keys(associated_with: list[str], child: ModelDef, where: str) -> list[str]:
    """Follow ``associatedWith`` to the child's foreign-key field names."""
    if not associated_with:
        raise SchemaFileError(f"{where}.association.associatedWith: expected at least one field name")
    first = child.fields.get(associated_with[0])
    if first is not None and first.kind == "model":
        if first.association is None or not first.association.target_names:
            raise SchemaFileError(f"{where}.association.associatedWith: {child.name}.{first.name} "
                                  "has no targetNames to follow")
        return list(first.association.target_names)
    return list(associated_with)


def _ensure_fields(owner: ModelDef, names: list[str], source: ModelDef, source_fields: list[str]) -> None:
    """Add undeclared foreign-key fields to ``owner``, typed like the fields they point at."""
    for name, source_name in zip(names, source_fields):
        if name in owner.fields:
            continue
        template = source.fields.get(source_name)
        kind, type_name = (template.kind, template.type_name) if template else ("scalar", "ID")
        owner.fields[name] = FieldDef(name, kind, type_name)


def child_sort_key(child: ModelDef, foreign_keys: list[str]) -> tuple[str, list[str]]:
    """(key name, sort-key fields) of the key a has-many Query uses on the child.

    That is the child's primary key or first index whose fields start with the foreign keys; its
    remaining fields order the results. ``("", [])`` when no such key exists (Scan order is used).
    """
    candidates = [("Primary", child.key_fields)] + [(index.name, index.fields) for index in child.indexes]
    for name, fields in candidates:
        if fields[:len(foreign_keys)] == foreign_keys:
            return name, fields[len(foreign_keys):]
    return "", []
