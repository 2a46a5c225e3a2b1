/**
 * Deterministic, plausible synthetic tools to pad a dataset to a larger scale: the same seed gives
 * the same tools, so runs compare. They read like real API tools ("Create an invoice in the billing
 * service..."), so they compete with the real ones the way a big catalogue would.
 */
import type { DatasetTool } from './dataset.js';

const services = [
  ['billing', 'invoices, payments and subscriptions'],
  ['crm', 'contacts, leads and deals'],
  ['calendar', 'events, meetings and availability'],
  ['storage', 'buckets, objects and uploads'],
  ['tickets', 'support tickets and customer requests'],
  ['inventory', 'products, stock levels and warehouses'],
  ['analytics', 'dashboards, metrics and reports'],
  ['hr', 'employees, leave requests and payroll'],
  ['shipping', 'shipments, labels and carriers'],
  ['monitoring', 'alerts, incidents and uptime checks'],
  ['wiki', 'pages, spaces and comments'],
  ['chat', 'channels, threads and messages'],
  ['repository', 'branches, commits and pull requests'],
  ['database', 'tables, rows and queries'],
  ['email', 'mailboxes, drafts and campaigns'],
  ['forms', 'surveys, responses and questions'],
  ['maps', 'places, routes and geocoding'],
  ['translation', 'glossaries and translated documents'],
  ['video', 'recordings, transcripts and captions'],
  ['finance', 'ledgers, budgets and expenses'],
] as const;
const actions = [
  ['create', 'Create'],
  ['list', 'List'],
  ['get', 'Get the details of'],
  ['update', 'Update'],
  ['delete', 'Delete'],
  ['search', 'Search'],
  ['export', 'Export'],
  ['archive', 'Archive'],
  ['assign', 'Assign an owner to'],
  ['summarize', 'Summarize'],
  ['sync', 'Synchronize'],
  ['approve', 'Approve'],
] as const;
const objects = [
  'record',
  'item',
  'entry',
  'batch',
  'report',
  'template',
  'tag',
  'note',
  'attachment',
  'comment',
  'label',
  'workflow',
  'schedule',
  'policy',
  'webhook',
  'snapshot',
  'queue',
  'category',
  'rule',
  'view',
] as const;
const details = [
  'Supports pagination and filtering by date.',
  'Returns the identifier of the affected object.',
  'Requires write access to the workspace.',
  'Results are sorted by most recent first.',
  'Accepts an optional project or team scope.',
  'Fails if the object does not exist.',
  'Useful for bulk operations and automation.',
  'Respects the account permissions of the caller.',
] as const;

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` synthetic tools, named `syn_<service>_<action>_<object>_<n>`. */
export function syntheticTools(count: number, seed = 42): DatasetTool[] {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const tools: DatasetTool[] = [];
  for (let index = 0; index < count; index++) {
    const [service, domain] = pick(services);
    const [verb, phrase] = pick(actions);
    const object = pick(objects);
    tools.push({
      name: `syn_${service}_${verb}_${object}_${index}`,
      description: `${phrase} a ${object} in the ${service} service (${domain}). ${pick(details)}`,
      server: `${service}-${Math.floor(index / 50)}`,
      server_description: `Manage ${domain}.`,
      inputSchema: {
        type: 'object',
        properties: {
          [`${object}_id`]: { type: 'string', description: `Identifier of the ${object}` },
          workspace: { type: 'string', description: `The ${service} workspace` },
        },
      },
    });
  }
  return tools;
}
