import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that take longest start first, so the two workers end together instead of one running a
 * long file alone at the end (a clean checkout has no timing cache, and vitest's own order then
 * puts the property tests last). The lists come from a timed run (README → Tests: CI time).
 */
const LONGEST = [
  'tests/property/ledgers.property',
  'tests/property/documents.property',
  'tests/api/export-jobs',
  'tests/api/validation',
  'tests/api/transport-fees',
  'tests/api/resources-crud',
  'tests/api/import-export',
  'tests/api/workflow',
  'tests/api/marketing',
  'tests/api/mall-orders',
  'tests/e2e/schema-pages',
  'tests/e2e/mall',
  'tests/e2e/marketing',
  'tests/e2e/bills-more',
  'tests/e2e/action-prompts',
  'tests/e2e/bills-late',
  'tests/e2e/documents',
  'tests/e2e/reports',
  'tests/e2e/master-data-dialogs',
  'tests/e2e/trade',
];

export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = LONGEST.findIndex((name) => spec.moduleId.includes(name));
      return at < 0 ? LONGEST.length : at;
    };
    // Stable: the base order (project groups first) holds among files of equal rank.
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => group(a.spec) - group(b.spec) || rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
