/**
 * The walk over a paginated list (`tools/list`, `resources/list`, `resources/templates/list`,
 * `prompts/list`): every page in order, into the first page's result. A server that answers the
 * same page and cursor again ends the walk instead of looping, and a walk past `maxPages` is an
 * error (a partial list would look complete).
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/** Most pages one list walks. */
const maxPages = 64;

/** Walks every page of `method` from the first; `key` names the page's array of items. */
export async function walkPages(
  method: string,
  key: string,
  fetchPage: (cursor: string | undefined) => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const itemsOf = (page: Record<string, unknown>): unknown[] => {
    const items = page[key];
    if (!Array.isArray(items)) {
      throw new SdkError(
        SdkErrorCode.InvalidResult,
        `Invalid result for ${method}: "${key}" is not an array`,
        {
          method,
        },
      );
    }
    return items;
  };
  const first = await fetchPage(undefined);
  const all = [...itemsOf(first)];
  let previous = first;
  let cursor = typeof first.nextCursor === 'string' ? first.nextCursor : undefined;
  for (let pages = 1; cursor !== undefined; pages++) {
    if (pages >= maxPages) {
      throw new SdkError(
        SdkErrorCode.ListPaginationExceeded,
        `${method}: the server's pages did not end after ${maxPages} pages`,
        { method, listMaxPages: maxPages },
      );
    }
    const page = await fetchPage(cursor);
    if (page.nextCursor === cursor && JSON.stringify(itemsOf(page)) === JSON.stringify(itemsOf(previous)))
      break;
    all.push(...itemsOf(page));
    previous = page;
    cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
  }
  const { nextCursor: _done, ...rest } = first;
  return { ...rest, [key]: all };
}
