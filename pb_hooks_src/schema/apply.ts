// Creates or removes the platform collections in a PocketBase app (called from pb_migrations/).
// Three passes, because relations and rules may point at collections created later in the list:
// scalar fields first, then relation fields, then rules and indexes.
import { platformCollections } from "./collections";
import { fieldJSON, isRelation } from "./fields";
import type { CollectionNames } from "./names";
import type { CollectionSpec, Rule, RuleSet } from "./spec";
import { indexName, withIndexes } from "./index-statements";
import { CLOSED } from "./rules";
import { indexesOf, setIndexes } from "./indexes";
import { hasField } from "../lib/collections";
import { dropRowCounts, keepRowCounts } from "./row-counts";
import { dropPendingRevocationsTable, keepPendingRevocationsTable } from "../bus/pending-revocations";

export function applyPlatformSchema(app: CoreApp, n: CollectionNames): void {
  const specs = platformCollections(n);
  const idOf = (key: string) => app.findCollectionByNameOrId(n[key as keyof CollectionNames]).id;

  for (const spec of specs) {
    const collection = findOrCreate(app, spec, n[spec.key]);
    addFields(collection, spec.fields.filter((f) => !isRelation(f)), idOf);
    app.save(collection);
  }
  for (const spec of specs) {
    const collection = app.findCollectionByNameOrId(n[spec.key]);
    addFields(collection, spec.fields.filter(isRelation), idOf);
    app.save(collection);
  }
  for (const spec of specs) {
    const collection = app.findCollectionByNameOrId(n[spec.key]);
    setRulesAndIndexes(collection, spec, n[spec.key]);
    app.save(collection);
  }
  keepRowCounts(app, n);
  keepPendingRevocationsTable(app);
}

/**
 * For a database whose collections exist (a later migration): adds the fields the specs gained, widens
 * text fields whose limit grew, then sets every rule and index as the specs say. Fields first, because a rule may read a field of another
 * collection (`@request.auth.current_role`).
 */
export function upgradePlatformSchema(app: CoreApp, n: CollectionNames): void {
  const specs = platformCollections(n);
  const idOf = (key: string) => app.findCollectionByNameOrId(n[key as keyof CollectionNames]).id;
  for (const spec of specs) {
    const collection = app.findCollectionByNameOrId(n[spec.key]);
    addFields(collection, spec.fields.filter((f) => !hasField(collection, f.name)), idOf);
    widenTextFields(collection, spec.fields);
    app.save(collection);
  }
  for (const spec of specs) {
    const collection = app.findCollectionByNameOrId(n[spec.key]);
    setRulesAndIndexes(collection, spec, n[spec.key]);
    app.save(collection);
  }
  keepRowCounts(app, n);
  keepPendingRevocationsTable(app);
}

/** An existing text field takes a larger `max` its spec gained; never a smaller one, which rows may pass. */
function widenTextFields(collection: core.Collection, fields: CollectionSpec["fields"]): void {
  for (const spec of fields) {
    if (spec.type !== "text" || !spec.max) continue;
    const field = collection.fields.getByName(spec.name) as core.TextField | null;
    if (field && field.max !== 0 && field.max < spec.max) field.max = spec.max;
  }
}

export function removePlatformSchema(app: CoreApp, n: CollectionNames): void {
  const specs = platformCollections(n);
  dropRowCounts(app, n);
  dropPendingRevocationsTable(app);
  // Rules and indexes next: PocketBase checks every rule and index on each save, and they name the
  // fields and collections removed below. A stock collection gets its own rules back.
  for (const spec of specs) {
    const collection = app.findCollectionByNameOrId(n[spec.key]);
    const stock = spec.extendsStock;
    setRules(collection, stock ? stock.rules : CLOSED_RULES, stock ?? (spec.auth && { authRule: CLOSED, manageRule: CLOSED }));
    if (stock) collection.authToken.duration = stock.tokenSeconds;
    const platformIndexes = new Set(statementsOf(spec, n[spec.key]).map(indexName));
    setIndexes(collection, indexesOf(collection).filter((sql) => !platformIndexes.has(indexName(sql))));
    app.save(collection);
  }
  // Then relations, so that deleting collections never trips over a reference.
  for (const spec of specs) {
    const collection = app.findCollectionByNameOrId(n[spec.key]);
    for (const field of spec.fields.filter(isRelation)) collection.fields.removeByName(field.name);
    app.save(collection);
  }
  for (const spec of [...specs].reverse()) {
    const collection = app.findCollectionByNameOrId(n[spec.key]);
    if (spec.extendsStock) {
      for (const field of spec.fields) collection.fields.removeByName(field.name);
      app.save(collection);
    } else {
      app.delete(collection);
    }
  }
}

function findOrCreate(app: CoreApp, spec: CollectionSpec, name: string): core.Collection {
  return spec.extendsStock ? app.findCollectionByNameOrId(name) : new Collection({ type: spec.type, name });
}

function addFields(collection: core.Collection, fields: CollectionSpec["fields"], idOf: (key: string) => string): void {
  for (const field of fields) {
    collection.fields.addMarshaledJSON(JSON.stringify(fieldJSON(field, idOf)));
  }
}

function setRulesAndIndexes(collection: core.Collection, spec: CollectionSpec, name: string): void {
  setRules(collection, spec.rules, spec.auth);
  setIndexes(collection, withIndexes(indexesOf(collection), statementsOf(spec, name)));
  if (spec.auth) {
    collection.authToken.duration = spec.auth.tokenSeconds;
    if (spec.auth.passwordCost) (collection.fields.getByName("password") as core.PasswordField).cost = spec.auth.passwordCost;
  }
  // Protect pre-existing file fields too (the stock users.avatar).
  for (let i = 0; i < collection.fields.length; i++) {
    const field = collection.fields[i];
    if (field.type() === "file") (field as core.FileField).protected = true;
  }
}

const CLOSED_RULES: RuleSet = { list: CLOSED, view: CLOSED, create: CLOSED, update: CLOSED, delete: CLOSED };

function setRules(collection: core.Collection, rules: RuleSet, auth?: { authRule: Rule; manageRule: Rule }): void {
  // goja maps a JS null onto Go's nil *string: the operation is closed to every API caller.
  const rule = (r: Rule) => r as string;
  collection.listRule = rule(rules.list);
  collection.viewRule = rule(rules.view);
  collection.createRule = rule(rules.create);
  collection.updateRule = rule(rules.update);
  collection.deleteRule = rule(rules.delete);
  if (auth) {
    collection.authRule = rule(auth.authRule);
    collection.manageRule = rule(auth.manageRule);
  }
}

/** The spec's index statements for the collection as it is named in this installation. */
function statementsOf(spec: CollectionSpec, name: string): string[] {
  return spec.indexes.map((sql) => sql.split("{table}").join(name));
}
