package config

import (
	"net/url"
	"strings"
)

// urlMask is what a URL's password, user name or query value becomes in a message, as
// net/url's URL.Redacted writes a password.
const urlMask = "xxxxx"

// redactURL is raw as an error message may quote it: the user info's password (and a user
// name that stands alone, as a token does in https://TOKEN@host) and every value of the query
// and the fragment replaced by xxxxx, the rest as written, so that the message still says which
// host or scheme is wrong. net/url's Redacted does the first part but only for a URL that
// parses, and the URLs an error quotes are exactly those that may not (a bad port, a stray
// '%', a '/' inside the password); those are read by hand, and where they are ambiguous more is
// masked rather than less.
func redactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Opaque == "" {
		if u.User != nil {
			if _, ok := u.User.Password(); ok {
				u.User = url.UserPassword(u.User.Username(), urlMask)
			} else if u.User.Username() != "" {
				u.User = url.User(urlMask)
			}
		}
		u.RawQuery = maskPairs(u.RawQuery)
		frag, hasFrag := u.EscapedFragment(), u.Fragment != "" || strings.HasSuffix(raw, "#")
		u.Fragment, u.RawFragment = "", ""
		s := u.String()
		if hasFrag {
			s += "#" + maskPairs(frag)
		}
		return s
	}
	// Unparsed: the user info ends at the last '@' anywhere (a password may hold '/', '?' or
	// '#', unescaped), and runs from just after the scheme.
	scheme, rest := "", raw
	if i := strings.Index(raw, "://"); i >= 0 {
		scheme, rest = raw[:i+3], raw[i+3:]
	}
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		if user, _, ok := strings.Cut(rest[:at], ":"); ok {
			rest = user + ":" + urlMask + rest[at:]
		} else {
			rest = urlMask + rest[at:]
		}
	}
	rest, frag, hasFrag := strings.Cut(rest, "#")
	rest, query, hasQuery := strings.Cut(rest, "?")
	s := scheme + rest
	if hasQuery {
		s += "?" + maskPairs(query)
	}
	if hasFrag {
		s += "#" + maskPairs(frag)
	}
	return s
}

// maskPairs masks the values of a query string (or a fragment written like one, as OAuth's
// #access_token=…); a part without '=' may itself be a token, so it is masked whole.
func maskPairs(q string) string {
	if q == "" {
		return ""
	}
	parts := strings.Split(q, "&")
	for i, p := range parts {
		if k, _, ok := strings.Cut(p, "="); ok {
			parts[i] = k + "=" + urlMask
		} else if p != "" {
			parts[i] = urlMask
		}
	}
	return strings.Join(parts, "&")
}
