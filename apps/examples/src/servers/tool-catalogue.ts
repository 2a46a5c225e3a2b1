/**
 * A generated catalogue of ~500 plausible business tools (50 services × 10 operations), each with
 * a distinct name, a real description and a JSON Schema. It stands in for the long tail of MCP
 * servers a large organisation connects, so tool selection has a realistic haystack to search.
 */
import type { McpToolDefinition } from '@switchboard/core';

type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'array';
type Field = [name: string, type: FieldType, description: string];

interface Service {
  /** Tool-name prefix, e.g. `calendar`. */
  key: string;
  /** What creating an entity means to a user: "schedule a meeting". */
  creates: string;
  /** What the service is, as a phrase: "the team calendar". */
  label: string;
  entity: string;
  plural: string;
  fields: Field[];
}

// One service per line reads as the table it is.
// biome-ignore format: a data table
const services: Service[] = [
  { key: 'calendar', creates: 'schedule a meeting', label: 'the team calendar', entity: 'event', plural: 'events', fields: [['title', 'string', 'Event title'], ['start', 'string', 'Start time, ISO 8601'], ['end', 'string', 'End time, ISO 8601'], ['attendees', 'array', 'Email addresses of the attendees']] },
  { key: 'email', creates: 'send an email', label: 'the mailbox', entity: 'message', plural: 'email messages', fields: [['to', 'array', 'Recipient email addresses'], ['subject', 'string', 'Subject line'], ['body', 'string', 'Plain-text body']] },
  { key: 'github', creates: 'open or file a bug report', label: 'GitHub', entity: 'issue', plural: 'issues', fields: [['repository', 'string', 'owner/name of the repository'], ['title', 'string', 'Issue title'], ['body', 'string', 'Issue description in Markdown'], ['labels', 'array', 'Label names']] },
  { key: 'git', creates: 'propose code changes for review', label: 'the Git hosting service', entity: 'pull_request', plural: 'pull requests', fields: [['repository', 'string', 'owner/name of the repository'], ['title', 'string', 'Pull request title'], ['head', 'string', 'Branch with the changes'], ['base', 'string', 'Branch to merge into']] },
  { key: 'jira', creates: 'file a task', label: 'Jira', entity: 'ticket', plural: 'tickets', fields: [['project', 'string', 'Project key, e.g. OPS'], ['summary', 'string', 'One-line summary'], ['priority', 'string', 'lowest, low, medium, high or highest']] },
  { key: 'slack', creates: 'post a message to a channel', label: 'Slack', entity: 'channel_message', plural: 'channel messages', fields: [['channel', 'string', 'Channel name or id'], ['text', 'string', 'Message text (mrkdwn)']] },
  { key: 'crm', creates: 'add a person to the address book', label: 'the CRM', entity: 'contact', plural: 'contacts', fields: [['name', 'string', 'Full name'], ['email', 'string', 'Email address'], ['company', 'string', 'Company name']] },
  { key: 'sales', creates: 'record a sales opportunity', label: 'the sales pipeline', entity: 'deal', plural: 'deals', fields: [['title', 'string', 'Deal name'], ['amount', 'number', 'Deal value'], ['stage', 'string', 'Pipeline stage']] },
  { key: 'billing', creates: 'send an invoice to a customer', label: 'the billing system', entity: 'invoice', plural: 'invoices', fields: [['customer', 'string', 'Customer id'], ['amount', 'number', 'Total amount'], ['due_date', 'string', 'Due date, YYYY-MM-DD']] },
  { key: 'payments', creates: 'charge a customer or pay', label: 'the payment processor', entity: 'payment', plural: 'payments', fields: [['amount', 'number', 'Amount in minor units'], ['currency', 'string', 'ISO 4217 currency code'], ['method', 'string', 'card, transfer or wallet']] },
  { key: 'inventory', creates: 'register stock in a warehouse', label: 'warehouse inventory', entity: 'stock_item', plural: 'stock items', fields: [['sku', 'string', 'Stock keeping unit'], ['quantity', 'integer', 'Units on hand'], ['warehouse', 'string', 'Warehouse code']] },
  { key: 'shop', creates: 'place an order for a customer', label: 'the online shop', entity: 'order', plural: 'orders', fields: [['customer', 'string', 'Customer id'], ['items', 'array', 'SKUs ordered'], ['shipping_address', 'string', 'Delivery address']] },
  { key: 'logistics', creates: 'ship a parcel', label: 'the shipping service', entity: 'shipment', plural: 'shipments', fields: [['carrier', 'string', 'Carrier name'], ['tracking_number', 'string', 'Carrier tracking number'], ['destination', 'string', 'Destination address']] },
  { key: 'travel', creates: 'book a flight', label: 'the travel agency', entity: 'flight_booking', plural: 'flight bookings', fields: [['origin', 'string', 'Departure airport (IATA code)'], ['destination', 'string', 'Arrival airport (IATA code)'], ['date', 'string', 'Departure date, YYYY-MM-DD'], ['passengers', 'integer', 'Number of passengers']] },
  { key: 'hotels', creates: 'book a hotel room', label: 'the hotel booking service', entity: 'hotel_reservation', plural: 'hotel reservations', fields: [['city', 'string', 'City'], ['check_in', 'string', 'Check-in date'], ['check_out', 'string', 'Check-out date'], ['guests', 'integer', 'Number of guests']] },
  { key: 'weather', creates: 'issue a storm or heat warning', label: 'the weather service', entity: 'weather_alert', plural: 'weather alerts', fields: [['region', 'string', 'Region or city'], ['severity', 'string', 'minor, moderate, severe or extreme'], ['phenomenon', 'string', 'storm, heat, flood, snow...']] },
  { key: 'recipes', creates: 'save a recipe', label: 'the recipe book', entity: 'recipe', plural: 'recipes', fields: [['title', 'string', 'Dish name'], ['ingredients', 'array', 'Ingredients with quantities'], ['servings', 'integer', 'Number of servings']] },
  { key: 'expenses', creates: 'submit an expense for reimbursement', label: 'expense management', entity: 'expense_report', plural: 'expense reports', fields: [['amount', 'number', 'Amount spent'], ['category', 'string', 'travel, meals, equipment...'], ['date', 'string', 'Date of the expense']] },
  { key: 'hr', creates: 'onboard a new hire', label: 'the HR system', entity: 'employee', plural: 'employees', fields: [['name', 'string', 'Full name'], ['department', 'string', 'Department'], ['job_title', 'string', 'Job title']] },
  { key: 'timeoff', creates: 'request vacation or sick days', label: 'the leave planner', entity: 'leave_request', plural: 'leave requests', fields: [['employee', 'string', 'Employee id'], ['start', 'string', 'First day off'], ['end', 'string', 'Last day off'], ['kind', 'string', 'vacation, sick or parental']] },
  { key: 'recruiting', creates: 'advertise an open position', label: 'the applicant tracking system', entity: 'job_posting', plural: 'job postings', fields: [['title', 'string', 'Job title'], ['location', 'string', 'Office or remote'], ['salary', 'number', 'Yearly salary']] },
  { key: 'talent', creates: 'add a job applicant', label: 'the candidate pipeline', entity: 'candidate', plural: 'candidates', fields: [['name', 'string', 'Candidate name'], ['email', 'string', 'Email address'], ['position', 'string', 'Position applied for']] },
  { key: 'helpdesk', creates: 'open a customer support case', label: 'the help desk', entity: 'support_ticket', plural: 'support tickets', fields: [['subject', 'string', 'What the customer needs'], ['priority', 'string', 'low, normal, urgent'], ['customer', 'string', 'Customer email']] },
  { key: 'wiki', creates: 'write a how-to article', label: 'the knowledge base', entity: 'article', plural: 'knowledge base articles', fields: [['title', 'string', 'Article title'], ['body', 'string', 'Article content in Markdown'], ['tags', 'array', 'Tags']] },
  { key: 'blog', creates: 'publish a blog article', label: 'the company blog', entity: 'blog_post', plural: 'blog posts', fields: [['title', 'string', 'Post title'], ['body', 'string', 'Post content in Markdown'], ['author', 'string', 'Author name']] },
  { key: 'newsletter', creates: 'schedule a newsletter email', label: 'the newsletter platform', entity: 'campaign', plural: 'newsletter campaigns', fields: [['subject', 'string', 'Email subject'], ['audience', 'string', 'Subscriber list'], ['send_at', 'string', 'When to send, ISO 8601']] },
  { key: 'social', creates: 'schedule a social media post', label: 'social media scheduling', entity: 'social_post', plural: 'social media posts', fields: [['platform', 'string', 'mastodon, linkedin, bluesky...'], ['text', 'string', 'Post text'], ['scheduled_at', 'string', 'When to publish']] },
  { key: 'ads', creates: 'launch an ad campaign', label: 'the advertising platform', entity: 'ad_campaign', plural: 'ad campaigns', fields: [['name', 'string', 'Campaign name'], ['daily_budget', 'number', 'Daily budget'], ['audience', 'string', 'Target audience']] },
  { key: 'dns', creates: 'point a domain name at a server', label: 'DNS hosting', entity: 'dns_record', plural: 'DNS records', fields: [['zone', 'string', 'Domain zone, e.g. example.com'], ['record_type', 'string', 'A, AAAA, CNAME, MX, TXT'], ['value', 'string', 'Record value'], ['ttl', 'integer', 'Time to live in seconds']] },
  { key: 'cloud', creates: 'launch a server instance', label: 'the cloud provider', entity: 'virtual_machine', plural: 'virtual machines', fields: [['name', 'string', 'Machine name'], ['size', 'string', 'Instance size'], ['region', 'string', 'Cloud region']] },
  { key: 'database', creates: 'back up a database', label: 'the managed database service', entity: 'backup', plural: 'database backups', fields: [['database', 'string', 'Database name'], ['retention_days', 'integer', 'Days to keep the backup']] },
  { key: 'kubernetes', creates: 'deploy a container image', label: 'the Kubernetes cluster', entity: 'deployment', plural: 'deployments', fields: [['namespace', 'string', 'Kubernetes namespace'], ['image', 'string', 'Container image'], ['replicas', 'integer', 'Number of pods']] },
  { key: 'ci', creates: 'trigger a build of a branch', label: 'continuous integration', entity: 'pipeline_run', plural: 'pipeline runs', fields: [['repository', 'string', 'owner/name of the repository'], ['branch', 'string', 'Branch to build']] },
  { key: 'flags', creates: 'add a feature toggle', label: 'the feature flag service', entity: 'feature_flag', plural: 'feature flags', fields: [['key', 'string', 'Flag key'], ['enabled', 'boolean', 'Whether the flag is on'], ['rollout_percent', 'number', 'Share of users who get it']] },
  { key: 'monitoring', creates: 'set up an alert on a metric', label: 'the monitoring system', entity: 'alert_rule', plural: 'alert rules', fields: [['metric', 'string', 'Metric name'], ['threshold', 'number', 'Value that fires the alert'], ['notify', 'string', 'Channel to notify']] },
  { key: 'logs', creates: 'save a log query', label: 'log management', entity: 'saved_search', plural: 'saved log searches', fields: [['query', 'string', 'Log query'], ['time_range', 'string', 'e.g. last 24h']] },
  { key: 'sheets', creates: 'append a row to a spreadsheet', label: 'the spreadsheet app', entity: 'spreadsheet_row', plural: 'spreadsheet rows', fields: [['sheet', 'string', 'Sheet name'], ['values', 'array', 'Cell values, left to right']] },
  { key: 'docs', creates: 'write a new document', label: 'the document editor', entity: 'document', plural: 'documents', fields: [['title', 'string', 'Document title'], ['content', 'string', 'Document text'], ['folder', 'string', 'Folder path']] },
  { key: 'photos', creates: 'make a photo album', label: 'the photo library', entity: 'album', plural: 'photo albums', fields: [['title', 'string', 'Album title'], ['visibility', 'string', 'private, shared or public']] },
  { key: 'music', creates: 'make a playlist of songs', label: 'the music streaming service', entity: 'playlist', plural: 'playlists', fields: [['name', 'string', 'Playlist name'], ['tracks', 'array', 'Track ids']] },
  { key: 'podcasts', creates: 'publish a podcast episode', label: 'the podcast host', entity: 'episode', plural: 'podcast episodes', fields: [['title', 'string', 'Episode title'], ['audio_url', 'string', 'URL of the audio file']] },
  { key: 'dining', creates: 'book a table at a restaurant', label: 'the restaurant booking service', entity: 'table_reservation', plural: 'restaurant reservations', fields: [['restaurant', 'string', 'Restaurant name'], ['party_size', 'integer', 'Number of people'], ['time', 'string', 'Date and time']] },
  { key: 'fitness', creates: 'log a workout or run', label: 'the fitness tracker', entity: 'workout', plural: 'workouts', fields: [['activity', 'string', 'run, ride, swim, strength...'], ['duration_minutes', 'integer', 'Duration'], ['calories', 'number', 'Calories burned']] },
  { key: 'health', creates: 'set a reminder to take medicine', label: 'the medication app', entity: 'medication_reminder', plural: 'medication reminders', fields: [['medication', 'string', 'Medication name'], ['dose', 'string', 'Dose, e.g. 200 mg'], ['time', 'string', 'Time of day']] },
  { key: 'smarthome', creates: 'automate lights and devices at home', label: 'the smart home hub', entity: 'automation', plural: 'home automations', fields: [['trigger', 'string', 'What starts it, e.g. sunset'], ['action', 'string', 'What it does, e.g. lights on']] },
  { key: 'fleet', creates: 'log a car service', label: 'fleet management', entity: 'maintenance_record', plural: 'vehicle maintenance records', fields: [['vehicle', 'string', 'Licence plate'], ['service', 'string', 'Work done'], ['mileage', 'integer', 'Odometer reading']] },
  { key: 'realestate', creates: 'list a house or flat for sale', label: 'the property portal', entity: 'listing', plural: 'property listings', fields: [['address', 'string', 'Street address'], ['price', 'number', 'Asking price'], ['bedrooms', 'integer', 'Number of bedrooms']] },
  { key: 'learning', creates: 'enrol a student in a course', label: 'the learning platform', entity: 'enrollment', plural: 'course enrollments', fields: [['course', 'string', 'Course id'], ['student', 'string', 'Student id']] },
  { key: 'library', creates: 'lend a book to a member', label: 'the library system', entity: 'book_loan', plural: 'book loans', fields: [['isbn', 'string', 'Book ISBN'], ['member', 'string', 'Library member id'], ['due_date', 'string', 'Return date']] },
  { key: 'surveys', creates: 'ask customers for feedback', label: 'the survey tool', entity: 'survey', plural: 'customer surveys', fields: [['title', 'string', 'Survey title'], ['questions', 'array', 'Question texts']] },
];

type Annotations = NonNullable<McpToolDefinition['annotations']>;

interface Operation {
  verb: string;
  annotations: Annotations;
  describe(service: Service): string;
  properties(service: Service): Field[];
  required(service: Service): string[];
}

const id = (service: Service): Field => [
  `${service.entity}_id`,
  'string',
  `Id of the ${service.entity.replaceAll('_', ' ')}`,
];
const fieldNames = (service: Service): string => {
  const names = service.fields.map(([name]) => name.replaceAll('_', ' '));
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
};
const readOnly: Annotations = { readOnlyHint: true, openWorldHint: true };
const writes: Annotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: true };
const destroys: Annotations = { readOnlyHint: false, destructiveHint: true, openWorldHint: true };
const noun = (service: Service): string => service.entity.replaceAll('_', ' ');

const operations: Operation[] = [
  {
    verb: 'create',
    annotations: writes,
    describe: (s) =>
      `Create a new ${noun(s)} in ${s.label} (${s.creates}), given its ${fieldNames(s)}. Returns the new id.`,
    properties: (s) => s.fields,
    required: (s) => s.fields.slice(0, 2).map(([name]) => name),
  },
  {
    verb: 'get',
    annotations: readOnly,
    describe: (s) => `Get one ${noun(s)} from ${s.label} by its id, with all of its fields.`,
    properties: (s) => [id(s)],
    required: (s) => [id(s)[0]],
  },
  {
    verb: 'list',
    annotations: readOnly,
    describe: (s) => `List ${s.plural} in ${s.label}, newest first, one page at a time.`,
    properties: () => [
      ['limit', 'integer', 'Page size (1-100)'],
      ['cursor', 'string', 'Cursor from the previous page'],
    ],
    required: () => [],
  },
  {
    verb: 'update',
    annotations: { ...writes, idempotentHint: true },
    describe: (s) => `Update an existing ${noun(s)} in ${s.label}: change its ${fieldNames(s)}.`,
    properties: (s) => [id(s), ...s.fields],
    required: (s) => [id(s)[0]],
  },
  {
    verb: 'delete',
    annotations: destroys,
    describe: (s) => `Permanently delete a ${noun(s)} from ${s.label}. This cannot be undone.`,
    properties: (s) => [id(s)],
    required: (s) => [id(s)[0]],
  },
  {
    verb: 'search',
    annotations: readOnly,
    describe: (s) => `Search ${s.plural} in ${s.label} by keywords matching their ${fieldNames(s)}.`,
    properties: () => [
      ['query', 'string', 'Keywords to look for'],
      ['limit', 'integer', 'Most results to return'],
    ],
    required: () => ['query'],
  },
  {
    verb: 'archive',
    annotations: { ...writes, idempotentHint: true },
    describe: (s) =>
      `Archive a ${noun(s)} in ${s.label}: hide it from lists and searches without deleting it.`,
    properties: (s) => [id(s)],
    required: (s) => [id(s)[0]],
  },
  {
    verb: 'export',
    annotations: readOnly,
    describe: (s) => `Export all ${s.plural} from ${s.label} as a CSV or JSON file for reporting or backup.`,
    properties: () => [['format', 'string', 'csv or json']],
    required: () => ['format'],
  },
  {
    verb: 'count',
    annotations: readOnly,
    describe: (s) =>
      `Count ${s.plural} in ${s.label}, grouped by ${s.fields.at(-1)?.[0].replaceAll('_', ' ')}.`,
    properties: () => [['since', 'string', 'Only count items changed since this date']],
    required: () => [],
  },
  {
    verb: 'watch',
    annotations: writes,
    describe: (s) =>
      `Subscribe a webhook URL to changes of ${s.plural} in ${s.label} (created, updated, deleted).`,
    properties: () => [['webhook_url', 'string', 'URL that receives a POST per change']],
    required: () => ['webhook_url'],
  },
];

function toSchema(type: FieldType, description: string): Record<string, unknown> {
  return type === 'array' ? { type, items: { type: 'string' }, description } : { type, description };
}

/** The catalogue's tools, in MCP `tools/list` shape. */
export function createToolCatalogue(): McpToolDefinition[] {
  return services.flatMap((service) =>
    operations.map((operation) => ({
      name: `${service.key}_${operation.verb}_${service.entity}`,
      description: operation.describe(service),
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(
          operation
            .properties(service)
            .map(([name, type, description]) => [name, toSchema(type, description)]),
        ),
        required: operation.required(service),
        additionalProperties: false,
      },
      annotations: operation.annotations,
    })),
  );
}
