import { Fragment, type ReactNode } from 'react';

/**
 * A translated template with elements in its `{name}` placeholders (a link, a bold contact),
 * so the words around them stay in the translation's order.
 * @example richText('Code sent to {contact}.', { contact: <strong>{email}</strong> })
 */
export function richText(template: string, parts: Record<string, ReactNode>): ReactNode[] {
  return template.split(/(\{\w+\})/).map((piece, i) => {
    const name = /^\{(\w+)\}$/.exec(piece)?.[1];
    // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one template, in a fixed order
    return <Fragment key={i}>{name !== undefined && name in parts ? parts[name] : piece}</Fragment>;
  });
}
