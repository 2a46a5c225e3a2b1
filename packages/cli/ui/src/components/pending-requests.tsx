/** Pending requests (being built). */
export function PendingRequests() {
  return null;
}
