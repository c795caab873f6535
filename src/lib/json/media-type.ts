// Which request bodies count as JSON: the gateway and the local proxy answer the same question alike.

/** The media type of a Content-Type value: lower-cased (RFC 9110 8.3.1), parameters such as charset left out. */
export function mediaTypeOf(contentType: string): string {
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** application/json, or a structured type built on it (`application/<name>+json`, RFC 6839). */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}
