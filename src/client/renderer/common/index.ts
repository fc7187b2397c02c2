/** Shared helpers of the generic renderer (list, page, form, pickers). */
export { useResource, loadResource, peekResource } from './useResource.ts';
export {
  useDictionary,
  useDictionaries,
  loadFieldDictionary,
  dictItemOf,
  dictSourceOf,
  type DictEntry,
} from './useDictionary.ts';
export { formatCell, formatDecimal, decimalPlaces, columnFormatOf, maskPhone, type DecimalKind } from './format.ts';
export { endpointUrl } from './endpoint.ts';
export { resolveParams, type Row } from './params.ts';
export { can, useCan, endpointPermission } from './permissions.ts';
export { columnTitle, resourceTitle } from './labels.ts';
export { rt, useRT, useLabel, type RendererKey } from './i18n.ts';
export * from './views.ts';
