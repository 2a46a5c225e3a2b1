/** The options of the Server Card (SEP-2127) an HTTP server publishes (`server-card.ts`). */

/** What a card says beyond what the server knows of itself (`serve`'s `serverCard` option). */
export interface ServerCardOptions {
  /**
   * The card's reverse-DNS `name` (`com.example/weather`).
   * @default the request's host name, reversed, then `/` and the server's name
   */
  name?: string;
  /** One line on what the server does (at most 100 characters). @default the server's title, else its instructions' first line */
  description?: string;
  /** The server's homepage or documentation. @default none */
  websiteUrl?: string;
}
