// Lets the tests build steppers from a hash they control (used for untrusted-input checks):
// #<url-encoded JSON of { attributes, inputs }> becomes one more <attention-stepper>.
if (location.hash.length > 1) {
  const { attributes = {}, inputs } = JSON.parse(decodeURIComponent(location.hash.slice(1)));
  const stepper = document.createElement('attention-stepper');
  stepper.id = 'given';
  for (const [name, value] of Object.entries(attributes)) stepper.setAttribute(name, value);
  if (inputs !== undefined)
    stepper.setAttribute('inputs', typeof inputs === 'string' ? inputs : JSON.stringify(inputs));
  document.body.append(stepper);
}
