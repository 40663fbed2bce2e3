/**
 * What happens on a 401 from an authenticated route. The session feature registers it (validate the
 * token; logout, or ask to re-authenticate during a case); the API client only reports. A separate
 * module so the first screen can register it without loading the API client.
 */
type UnauthorizedHandler = () => void;
let handler: UnauthorizedHandler = () => undefined;

export function setUnauthorizedHandler(next: UnauthorizedHandler): void {
  handler = next;
}

export function reportUnauthorized(): void {
  handler();
}
