package agent

import (
	"strings"

	"github.com/finbot/finbot/ru"
)

// normalize prepares text for word rules (see ru.Fold).
func normalize(s string) string { return ru.Fold(s) }

// extractJSON tolerates a model that wraps its JSON object in a code fence or prose.
func extractJSON(s string) string {
	start, end := strings.Index(s, "{"), strings.LastIndex(s, "}")
	if start < 0 || end < start {
		return s
	}
	return s[start : end+1]
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
