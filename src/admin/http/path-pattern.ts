// Path patterns with :named segments, compiled once: '/customers/:customerId/keys'.

export type PathMatcher = (path: string) => Record<string, string> | null;

export function compilePattern(pattern: string): PathMatcher {
  const parts = pattern.split('/');
  return (path) => {
    const segments = path.split('/');
    if (segments.length !== parts.length) return null;
    const params: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      const segment = segments[i];
      if (part.startsWith(':')) {
        if (segment === '') return null;
        try {
          params[part.slice(1)] = decodeURIComponent(segment);
        } catch {
          return null;
        }
      } else if (part !== segment) return null;
    }
    return params;
  };
}
