import fc from 'fast-check';

// Values for a route from its OpenAPI (JSON Schema) description: mostly shaped like the schema,
// with its edges (empty, at and past the length limits, out of range, wrong type, null, extra
// keys), so generated requests reach the handlers as well as the validators.

export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Strings people and broken clients send: blank, unicode, markup, SQL, numbers as text, huge. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    'NaN',
    'null',
    'true',
    '[]',
    '{}',
    "' OR 1=1 --",
    '"; drop table leads; --',
    '<script>alert(1)</script>',
    '=HYPERLINK("http://x")',
    '../../etc/passwd',
    '%00',
    '\u0000',
    '\uFEFF',
    '🏠🔑',
    'नमस्ते',
    '2026-02-30T25:61:00Z',
    '9999-12-31T23:59:59Z',
    'a@b',
    '__proto__',
    'constructor',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.stringMatching(/^\d{1,15}$/),
  fc.nat(5000).map((n) => 'x'.repeat(n)),
);

function integerArb(s: JsonSchema): fc.Arbitrary<number> {
  const min = Math.max(s.minimum ?? -MAX_SAFE, -MAX_SAFE);
  const max = Math.min(s.maximum ?? MAX_SAFE, MAX_SAFE);
  // Small positive numbers are the ids that exist (leads, option lists, accounts).
  const small = fc.integer({ min: Math.max(min, 1), max: Math.max(Math.min(max, 12), Math.max(min, 1)) });
  return fc.oneof(
    { arbitrary: small, weight: 6 },
    { arbitrary: fc.integer({ min, max: Math.min(max, min + 50) }), weight: 1 },
    { arbitrary: fc.integer({ min, max }), weight: 2 },
    { arbitrary: fc.constantFrom(min, max, min - 1, max + 1, 0, -1, 1.5, 2 ** 53, -(2 ** 63)), weight: 1 },
  );
}

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  const max = s.maxLength ?? 300;
  const shaped: fc.Arbitrary<string>[] = [
    fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(max, 60) }),
  ];
  if (s.pattern) {
    try {
      shaped.push(fc.stringMatching(new RegExp(s.pattern)));
    } catch {
      // Lookaheads and the like: fast-check cannot build from them; the other shapes remain.
    }
  }
  if (s.format === 'email' || /@/.test(s.pattern ?? '')) shaped.push(fc.emailAddress());
  const edges = fc.constantFrom('a'.repeat(max), 'a'.repeat(max + 1));
  return fc.oneof(
    { arbitrary: fc.oneof(...shaped), weight: 4 },
    { arbitrary: nastyString, weight: 2 },
    { arbitrary: edges, weight: 1 },
  );
}

/** Any JSON value of a wrong shape, to stand where the schema wants something else. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, '', [], {}),
  fc.jsonValue({ maxDepth: 2 }),
);

export function fromSchema(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const shaped = shapedValue(schema, depth);
  const value = schema.nullable ? fc.option(shaped, { nil: null, freq: 4 }) : shaped;
  return fc.oneof({ arbitrary: value, weight: 19 }, { arbitrary: wrongValue, weight: 1 });
}

function shapedValue(s: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const variants = s.anyOf ?? s.oneOf ?? s.allOf;
  if (variants) return fc.oneof(...variants.map((v) => fromSchema(v, depth + 1)));
  if (s.enum) return fc.oneof(fc.constantFrom(...s.enum), wrongValue);
  switch (s.type) {
    case 'integer':
      return integerArb(s);
    case 'number':
      return fc.oneof(integerArb(s), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', 1, 0));
    case 'string':
      return stringArb(s);
    case 'array':
      return depth > 3
        ? fc.constant([])
        : fc.array(fromSchema(s.items ?? {}, depth + 1), { maxLength: Math.min(s.maxItems ?? 8, 8) });
    case 'object':
      return depth > 3 ? fc.constant({}) : objectArb(s, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

// Fields a client must never be able to set by sending them (mass assignment, issue 6).
const extraKeys = ['roleId', 'assignedTo', 'leadID', 'registrationId', 'id', 'isActive', 'tv', 'password'];

/** Well-formed values for fields whose name says what they hold, so some writes succeed. */
function hinted(key: string): fc.Arbitrary<unknown> | null {
  if (/email/i.test(key)) return fc.emailAddress();
  if (/phone|contact$/i.test(key)) return fc.stringMatching(/^[6-9]\d{9}$/);
  if (/date|time|On$/i.test(key)) return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (/^(name|notes|note|location|siteVisit|configuration)$/i.test(key)) return fc.lorem({ maxCount: 4 });
  if (/password/i.test(key)) return fc.constantFrom('Secret@123', 'Another#2026');
  return null;
}

function objectArb(s: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = s.properties ?? {};
  const model = Object.fromEntries(
    Object.entries(props).map(([k, v]) => {
      const hint = hinted(k);
      const shaped = fromSchema(v, depth + 1);
      return [k, hint ? fc.oneof({ arbitrary: hint, weight: 2 }, { arbitrary: shaped, weight: 1 }) : shaped];
    }),
  );
  const required = s.required ?? [];
  return fc
    .tuple(
      fc.record(model, { requiredKeys: [] }),
      // Usually every required key is there, so the handler is reached; sometimes one is missing.
      fc.oneof(
        { arbitrary: fc.constant<string[]>([]), weight: 4 },
        { arbitrary: fc.subarray(required), weight: 1 },
      ),
      fc.dictionary(fc.oneof(fc.constantFrom(...extraKeys), fc.string({ maxLength: 10 })), wrongValue, {
        maxKeys: 2,
      }),
      fc.record(
        Object.fromEntries(required.map((k) => [k, model[k] ?? fromSchema(props[k] ?? {}, depth + 1)])),
      ),
    )
    .map(([some, drop, extra, req]) => {
      const out: Record<string, unknown> = { ...extra, ...req, ...some };
      for (const k of drop) delete out[k];
      return out;
    });
}
