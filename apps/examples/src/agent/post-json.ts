/** The one network call of the model adapters, with errors that say which endpoint failed and why. */

/** POSTs to `url`; a network failure names the endpoint and its cause, an HTTP error its status and body. */
export async function postJson(url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, method: 'POST' });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new Error(`Could not reach ${url} (${cause}). Check the base URL and your network.`, {
      cause: error,
    });
  }
  if (!response.ok) {
    // The body says what was wrong (model name, quota...); headers, and so the key, are never echoed.
    throw new Error(`${url} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  }
  return response;
}
