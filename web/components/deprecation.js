// Deprecation as docs/api.md promises it: a public name that goes stays one minor version as an
// alias, and its first use on a page says, once, what replaces it and in which version it goes.
const warned = new Set();

/** Warns once per page that `name` is deprecated: use `replacement`; it goes in `version`. */
export function warnDeprecated(name, replacement, version) {
  if (warned.has(name)) return;
  warned.add(name);
  console.warn(`attention-stepper: ${name} is deprecated and goes in ${version}: use ${replacement}.`);
}
