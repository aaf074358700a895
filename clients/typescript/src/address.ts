/** The base URL of an engine address: `"127.0.0.1:50051"` becomes `"http://127.0.0.1:50051"`; URLs stay as they are. */
export function baseUrl(address: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address.replace(/\/+$/, "") : `http://${address}`;
}
