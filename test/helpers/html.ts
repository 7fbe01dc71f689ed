import { parse } from 'parse5';

/** An element of a parsed document: its tag, its attributes by name, its text (a script's content). */
export type HtmlElement = { tag: string; attributes: Record<string, string>; text: string };

type Node = { nodeName: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; value?: string };

/** The elements of a document's <head>, in order, as a browser's HTML parser (parse5, the spec's algorithm) reads them. */
export function headElements(html: string): HtmlElement[] {
  const document = parse(html) as unknown as Node;
  const root = document.childNodes!.find((node) => node.nodeName === 'html')!;
  const head = root.childNodes!.find((node) => node.nodeName === 'head')!;
  return head.childNodes!.filter((node) => node.attrs).map(toElement);
}

/** Every element of the document's <body> matching `test`, in document order. */
export function bodyElements(html: string, test: (element: HtmlElement) => boolean): HtmlElement[] {
  const found: HtmlElement[] = [];
  const walk = (node: Node) => {
    if (node.attrs) {
      const element = toElement(node);
      if (test(element)) found.push(element);
    }
    for (const child of node.childNodes ?? []) walk(child);
  };
  const document = parse(html) as unknown as Node;
  const root = document.childNodes!.find((node) => node.nodeName === 'html')!;
  walk(root.childNodes!.find((node) => node.nodeName === 'body')!);
  return found;
}

function toElement(node: Node): HtmlElement {
  return {
    tag: node.nodeName,
    attributes: Object.fromEntries(node.attrs!.map(({ name, value }) => [name, value])),
    text: textOf(node),
  };
}

function textOf(node: Node): string {
  if (node.nodeName === '#text') return node.value ?? '';
  return (node.childNodes ?? []).map(textOf).join('');
}

/** The `content` of each <meta property|name=key>, in order. */
export function metaValues(head: HtmlElement[], key: string): string[] {
  return head
    .filter((element) => element.tag === 'meta' && (element.attributes.property ?? element.attributes.name) === key)
    .map((element) => element.attributes.content!);
}
