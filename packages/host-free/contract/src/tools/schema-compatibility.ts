/*
 * The backwards-compatibility rules of a tool's JSON Schemas, between the reviewed snapshot
 * (`before`) and what is generated now (`now`). One principle, two directions:
 * - an input schema may only widen: every call an agent could make before is still taken (no
 *   property removed or newly required, no enum value, const or union branch removed, no limit
 *   tightened, no type dropped, a closed object not closed further);
 * - an output schema may only narrow: every result a client could read before still reads the
 *   same (no property removed, none made optional, no enum value or union branch added, no limit
 *   loosened, no type added, no property added to a closed object). More precise is fine; a new
 *   optional property of an open result is fine.
 * Everything else (texts, examples, defaults) is held by the snapshot alone.
 */

type Schema = Record<string, unknown>;
export type SchemaDirection = 'input' | 'output';

const UPPER = ['maxLength', 'maxItems', 'maximum'] as const;
const LOWER = ['minLength', 'minItems', 'minimum'] as const;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(schema: Schema): string[] | undefined {
  const type = schema['type'];
  return type === undefined ? undefined : ([] as string[]).concat(type as string | string[]);
}

/** The key a union branch is matched by: its discriminator (`type` or `kind` const), else its JSON type. */
function branchKey(branch: Schema, index: number): string {
  const properties = isSchema(branch['properties']) ? branch['properties'] : {};
  for (const name of ['type', 'kind']) {
    const discriminator = properties[name];
    if (isSchema(discriminator) && discriminator['const'] !== undefined) return `${name}=${String(discriminator['const'])}`;
  }
  return typesOf(branch)?.join('|') ?? `#${index}`;
}

function branches(schema: Schema): Map<string, Schema> | undefined {
  const list = (schema['oneOf'] ?? schema['anyOf']) as Schema[] | undefined;
  return list && new Map(list.map((branch, index) => [branchKey(branch, index), branch]));
}

/**
 * Where `wide` refuses something `narrow` takes, each as "pointer: what". Input: narrow = before,
 * wide = now. Output: narrow = now, wide = before.
 */
function refusals(narrow: Schema, wide: Schema, at: string, direction: SchemaDirection, out: string[]): void {
  const said = (input: string, output: string) => (direction === 'input' ? input : output);
  const [before, now] = direction === 'input' ? [narrow, wide] : [wide, narrow];

  const narrowTypes = typesOf(narrow);
  const wideTypes = typesOf(wide);
  if (wideTypes && (!narrowTypes || narrowTypes.some((type) => !wideTypes.includes(type)))) {
    out.push(`${at}: type was ${JSON.stringify(typesOf(before) ?? 'any')}, now ${JSON.stringify(typesOf(now) ?? 'any')}`);
  }

  if (wide['const'] !== undefined && wide['const'] !== narrow['const']) {
    out.push(`${at}: const ${JSON.stringify(narrow['const'])} ${said('is no longer taken', 'is new')}`);
  }
  if (Array.isArray(wide['enum'])) {
    const taken = wide['enum'] as unknown[];
    const given = Array.isArray(narrow['enum']) ? (narrow['enum'] as unknown[]) : undefined;
    if (!given) out.push(`${at}: ${said('now limited to', 'no longer limited to')} ${JSON.stringify(taken)}`);
    for (const value of given?.filter((value) => !taken.includes(value)) ?? []) {
      out.push(`${at}: enum value ${JSON.stringify(value)} ${said('removed', 'added')}`);
    }
  }

  for (const key of UPPER) {
    const limit = wide[key] as number | undefined;
    if (limit !== undefined && !((narrow[key] as number | undefined) !== undefined && (narrow[key] as number) <= limit)) {
      out.push(`${at}: ${key} ${said(`lowered to ${limit}`, `raised from ${limit} to ${narrow[key] ?? 'none'}`)}`);
    }
  }
  for (const key of LOWER) {
    const limit = wide[key] as number | undefined;
    if (limit !== undefined && !((narrow[key] as number | undefined) !== undefined && (narrow[key] as number) >= limit)) {
      out.push(`${at}: ${key} ${said(`raised to ${limit}`, `lowered from ${limit} to ${narrow[key] ?? 'none'}`)}`);
    }
  }

  const wideRequired = (wide['required'] ?? []) as string[];
  const narrowRequired = (narrow['required'] ?? []) as string[];
  for (const name of wideRequired.filter((name) => !narrowRequired.includes(name))) {
    out.push(`${at}: ${said(`now requires "${name}"`, `no longer requires "${name}"`)}`);
  }

  // A property that was there stays, both ways: a call may still send it, a client may still read it.
  const beforeProperties = before['properties'];
  const nowProperties = now['properties'];
  if (isSchema(beforeProperties)) {
    for (const [name, schema] of Object.entries(beforeProperties)) {
      const other = isSchema(nowProperties) ? nowProperties[name] : undefined;
      if (!isSchema(other)) out.push(`${at}/properties/${name}: removed`);
      else if (isSchema(schema)) {
        const [n, w] = direction === 'input' ? [schema, other] : [other, schema];
        refusals(n, w, `${at}/properties/${name}`, direction, out);
      }
    }
  }
  if (wide['additionalProperties'] === false) {
    if (narrow['additionalProperties'] !== false)
      out.push(`${at}: ${said('now closed to other properties', 'no longer closed')}`);
    // A closed result takes no new property: a client checking the reviewed schema would refuse it.
    if (direction === 'output' && isSchema(nowProperties)) {
      for (const name of Object.keys(nowProperties).filter(
        (name) => !isSchema(beforeProperties) || !(name in beforeProperties),
      )) {
        out.push(`${at}/properties/${name}: added to a closed result`);
      }
    }
  }

  for (const key of ['items', 'additionalProperties', 'propertyNames'] as const) {
    if (isSchema(narrow[key]) && isSchema(wide[key])) refusals(narrow[key], wide[key], `${at}/${key}`, direction, out);
  }

  const narrowBranches = branches(narrow);
  const wideBranches = branches(wide);
  if (narrowBranches && wideBranches) {
    for (const [key, branch] of narrowBranches) {
      const match = wideBranches.get(key);
      if (match) refusals(branch, match, `${at}|${key}`, direction, out);
      else out.push(`${at}|${key}: union branch ${said('removed', 'added')}`);
    }
  }
}

/** Every breach of the rules above from `before` to `now`, as "JSON pointer into the schema: what changed". */
export function compatibilityBreaches(before: unknown, now: unknown, direction: SchemaDirection): string[] {
  const out: string[] = [];
  if (!isSchema(before) || !isSchema(now)) return ['(root): not a schema'];
  if (direction === 'input') refusals(before, now, '', direction, out);
  else refusals(now, before, '', direction, out);
  return out;
}
