import { type MessageFormatElement, TYPE } from '@formatjs/icu-messageformat-parser';

export type ArgumentValues = Record<string, string | number | Date>;

/**
 * A value for every argument a message names, of the kind it asks for: a number where
 * it counts, formats or selects a plural on one, a date for a date or time, `other`
 * for a select, text elsewhere (with characters HTML must escape).
 */
export function argumentValues(elements: MessageFormatElement[], values: ArgumentValues = {}): ArgumentValues {
  for (const element of elements) {
    if (element.type === TYPE.plural || element.type === TYPE.number) values[element.value] = 3;
    else if (element.type === TYPE.date || element.type === TYPE.time) values[element.value] = new Date(Date.UTC(2024, 4, 17));
    else if (element.type === TYPE.select) values[element.value] = 'other';
    else if (element.type === TYPE.argument) values[element.value] ??= 'Ünïcödé <b>';
    if (element.type === TYPE.plural || element.type === TYPE.select)
      for (const option of Object.values(element.options)) argumentValues(option.value, values);
    if (element.type === TYPE.tag) argumentValues(element.children, values);
  }
  return values;
}
