/** The built-in rule set: what a trust check runs when it is given no rules of its own. */

import { confusableNameRule } from './rules/confusable-name-rule.js';
import { descriptionBudgetRule } from './rules/description-budget-rule.js';
import { hiddenMarkupRule } from './rules/hidden-markup-rule.js';
import { invisibleUnicodeRule } from './rules/invisible-unicode-rule.js';
import { modelInstructionRule } from './rules/model-instruction-rule.js';
import { shadowingRule } from './rules/shadowing-rule.js';
import type { ToolRule } from './tool-rule.js';

/** The built-in rules, in the order they run. */
export const defaultToolRules: readonly ToolRule[] = [
  invisibleUnicodeRule,
  hiddenMarkupRule,
  modelInstructionRule,
  shadowingRule,
  confusableNameRule,
  descriptionBudgetRule,
];
