import { SaxesParser } from 'saxes';

export const ATOM_NS = 'http://www.w3.org/2005/Atom';

/** An element as parsed: its namespace and local name, attributes by qualified name, child elements and text. */
export type XmlElement = { uri: string; name: string; attributes: Record<string, string>; children: XmlElement[]; text: string };

/**
 * Parses a whole XML document with saxes, a conforming XML 1.0 parser with
 * namespaces: anything not well-formed (an unescaped `&` or `<`, a character
 * XML cannot hold, a tag left open, an unbound prefix) throws, with its line and
 * column. Returns the root element.
 */
export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    const element: XmlElement = {
      uri: tag.uri,
      name: tag.local,
      attributes: Object.fromEntries(Object.values(tag.attributes).map((attribute) => [attribute.name, attribute.value])),
      children: [],
      text: '',
    };
    const parent = stack.at(-1);
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('text', (text) => {
    const parent = stack.at(-1);
    if (parent) parent.text += text;
  });
  parser.on('closetag', () => stack.pop());
  parser.write(text).close();
  if (!root) throw new Error('no root element');
  return root;
}

/** The Atom children of `parent` named `name`. */
export function atomChildren(parent: XmlElement, name: string): XmlElement[] {
  return parent.children.filter((child) => child.uri === ATOM_NS && child.name === name);
}

/** The text of the only Atom child named `name`; fails when there is none or several. */
export function atomText(parent: XmlElement, name: string): string {
  const found = atomChildren(parent, name);
  if (found.length !== 1) throw new Error(`expected one <${name}>, found ${found.length}`);
  return found[0]!.text;
}
