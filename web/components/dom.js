/** document.createElement with a class and text: the page never parses strings as HTML. */
export function el(tag, className = '', textContent = '') {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (textContent) element.textContent = textContent;
  return element;
}

/** Sets the text unless the element already shows it: a new text node is laid out again. */
export function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

/**
 * Makes `children` the children of `parent`, keeping in place each present child that is one of
 * them or equal to the one that would replace it (a kept element is not restyled or laid out
 * again). New children must carry no listeners, as an equal one may stand in for them.
 */
export function setChildren(parent, children) {
  const present = [...parent.childNodes];
  const aligned =
    present.length === children.length &&
    children.every((child, i) => child.parentNode !== parent || present[i] === child);
  if (!aligned) return parent.replaceChildren(...children);
  children.forEach((child, i) => {
    if (present[i] !== child && !present[i].isEqualNode(child)) present[i].replaceWith(child);
  });
}

/** A button that runs `onClick` (type "button": it never submits a form). */
export function button(className, onClick) {
  const element = el('button', className);
  element.type = 'button';
  element.addEventListener('click', onClick);
  return element;
}
