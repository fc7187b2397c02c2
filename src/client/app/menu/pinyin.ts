/**
 * Pinyin initials of Chinese text without a dictionary: the browser's zh collation orders
 * characters by pinyin, so the first-letter block of a character is found by comparing it
 * with the first character of each block. Good enough for menu search ("xs" → 销售…).
 */
// prettier-ignore
const BLOCK_STARTS = ['吖', '八', '嚓', '咑', '妸', '发', '旮', '铪', '丌', '咔', '垃', '呣', '拏', '噢', '妑', '七', '呥', '仨', '他', '屲', '夕', '丫', '帀'];
const BLOCK_LETTERS = 'abcdefghjklmnopqrstwxyz';
const HAN = /[\u4e00-\u9fff]/;

let collator: Intl.Collator | undefined;
const cache = new Map<string, string>();

function initialOf(char: string): string {
  if (!HAN.test(char)) return char.toLowerCase();
  collator ??= new Intl.Collator('zh-Hans-CN');
  let letter = '';
  for (let i = 0; i < BLOCK_STARTS.length; i += 1) {
    if (collator.compare(char, BLOCK_STARTS[i]) < 0) break;
    letter = BLOCK_LETTERS[i];
  }
  return letter || char;
}

/** Lower-case pinyin initials, other characters kept (销售订单 → "xsdd"). */
export function pinyinInitials(text: string): string {
  let result = cache.get(text);
  if (result === undefined) {
    result = [...text].map(initialOf).join('');
    cache.set(text, result);
  }
  return result;
}
