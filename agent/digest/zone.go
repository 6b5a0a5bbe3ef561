package digest

import (
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // the zones are in the binary: a distroless image has no /usr/share/zoneinfo

	"github.com/finbot/finbot/ru"
)

// DefaultZone is the zone of a chat that set none.
const DefaultZone = "Europe/Moscow"

// cities are the Russian time zones as a user names them: a city or «МСК+N».
var cities = []struct {
	words []string
	zone  string
	name  string // how the bot says it
}{
	{[]string{"калининград", "мск-1", "msk-1"}, "Europe/Kaliningrad", "Калининград"},
	{[]string{"москва", "москве", "московское", "мск", "msk", "санкт-петербург", "петербург", "спб", "питер"}, "Europe/Moscow", "Москва"},
	{[]string{"самара", "самаре", "ижевск", "мск+1", "msk+1"}, "Europe/Samara", "Самара"},
	{[]string{"екатеринбург", "екб", "екатеринбурге", "пермь", "тюмень", "челябинск", "уфа", "мск+2", "msk+2"}, "Asia/Yekaterinburg", "Екатеринбург"},
	{[]string{"омск", "омске", "мск+3", "msk+3"}, "Asia/Omsk", "Омск"},
	{[]string{"новосибирск", "новосибирске", "барнаул", "томск"}, "Asia/Novosibirsk", "Новосибирск"},
	{[]string{"красноярск", "красноярске", "кемерово", "мск+4", "msk+4"}, "Asia/Krasnoyarsk", "Красноярск"},
	{[]string{"иркутск", "иркутске", "улан-удэ", "мск+5", "msk+5"}, "Asia/Irkutsk", "Иркутск"},
	{[]string{"якутск", "якутске", "чита", "мск+6", "msk+6"}, "Asia/Yakutsk", "Якутск"},
	{[]string{"владивосток", "владивостоке", "хабаровск", "мск+7", "msk+7"}, "Asia/Vladivostok", "Владивосток"},
	{[]string{"магадан", "магадане", "сахалин", "южно-сахалинск", "мск+8", "msk+8"}, "Asia/Magadan", "Магадан"},
	{[]string{"камчатка", "петропавловск-камчатский", "анадырь", "мск+9", "msk+9"}, "Asia/Kamchatka", "Камчатка"},
}

// Zone reads a time zone as a user writes it: a city («Екатеринбург»), «МСК+2», or an IANA
// name in any case («asia/yekaterinburg», «UTC»). The name returned is the IANA one.
func Zone(text string) (*time.Location, string, bool) {
	t := strings.TrimSpace(strings.ToLower(strings.ReplaceAll(text, "ё", "е")))
	t = strings.ReplaceAll(strings.ReplaceAll(t, " + ", "+"), " - ", "-")
	if t == "" {
		return nil, "", false
	}
	for _, c := range cities {
		for _, w := range c.words {
			if t == w {
				loc, err := time.LoadLocation(c.zone)
				return loc, c.zone, err == nil
			}
		}
	}
	if t == "utc" || t == "gmt" {
		return time.UTC, "UTC", true
	}
	if !strings.Contains(t, "/") || strings.ContainsAny(t, " .\\") {
		return nil, "", false // «Local» and the like are not a chat's zone
	}
	// IANA names are capitalised by segment and word: America/New_York, America/Port-au-Prince.
	parts := strings.Split(t, "/")
	for i, p := range parts {
		words := strings.Split(p, "_")
		for j, w := range words {
			hy := strings.Split(w, "-")
			for k, h := range hy {
				if len(h) > 0 && (k == 0 || len(h) > 2) {
					hy[k] = strings.ToUpper(h[:1]) + h[1:]
				}
			}
			words[j] = strings.Join(hy, "-")
		}
		parts[i] = strings.Join(words, "_")
	}
	for _, name := range []string{strings.Join(parts, "/"), strings.ToUpper(t)} {
		if loc, err := time.LoadLocation(name); err == nil {
			return loc, name, true
		}
	}
	return nil, "", false
}

// zoneName says a chat's zone: «Москва (Europe/Moscow)», «Asia/Dubai (UTC+4)».
func zoneName(name string, loc *time.Location, now time.Time) string {
	for _, c := range cities {
		if c.zone == name {
			return fmt.Sprintf("%s (%s)", c.name, name)
		}
	}
	_, off := now.In(loc).Zone()
	sign := "+"
	if off < 0 {
		sign, off = "−", -off
	}
	h, m := off/3600, off%3600/60
	if m != 0 {
		return fmt.Sprintf("%s (UTC%s%d:%02d)", name, sign, h, m)
	}
	return fmt.Sprintf("%s (UTC%s%d)", name, sign, h)
}

// zoneOrDefault is the zone named, or the default one.
func zoneOrDefault(name string, def *time.Location) (*time.Location, string) {
	if name != "" {
		if loc, err := time.LoadLocation(name); err == nil {
			return loc, name
		}
	}
	return def, def.String()
}

// moscow is the default zone when the configuration names none.
func moscow() *time.Location {
	if loc, err := time.LoadLocation(DefaultZone); err == nil {
		return loc
	}
	return ru.Moscow
}
