/** document.createElement with a class and text: the page never parses strings as HTML. */
export function el(tag, className = '', textContent = '') {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (textContent) element.textContent = textContent;
  return element;
}
