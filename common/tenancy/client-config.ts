// GET /api/client-config (spec 4.2): deployment facts the console reads before it dials anything.

export interface ClientConfig {
  /** The bus's websocket addresses a browser dials (bus.websocket_urls); empty when none is served. */
  natsWebsocketUrls: string[];
}
