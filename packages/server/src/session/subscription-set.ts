/**
 * The URIs a 2025 session subscribed to (`resources/subscribe`): a `Set` that tells a listener
 * about each change the session's handlers make, so a transport can share them (replicas: the
 * replica holding the session's GET stream learns of a subscription made through another one).
 * Changes that arrive from elsewhere are applied with `apply`, which does not tell the listener.
 */

/** A session's subscribed URIs. */
export class SubscriptionSet extends Set<string> {
  /** Runs on each local change (the transport shares it). @default none */
  onChange: ((uri: string, subscribed: boolean) => void) | undefined;
  /** Runs on each change applied from elsewhere (the server keeps its per-URI counts). @default none */
  onApply: ((uri: string, subscribed: boolean) => void) | undefined;

  override add(uri: string): this {
    const added = !this.has(uri);
    super.add(uri);
    if (added) this.onChange?.(uri, true);
    return this;
  }

  override delete(uri: string): boolean {
    const deleted = super.delete(uri);
    if (deleted) this.onChange?.(uri, false);
    return deleted;
  }

  /** Applies a change made elsewhere (not reported back). */
  apply(uri: string, subscribed: boolean): void {
    const changed = subscribed ? !this.has(uri) : this.has(uri);
    if (!changed) return;
    if (subscribed) super.add(uri);
    else super.delete(uri);
    this.onApply?.(uri, subscribed);
  }
}
