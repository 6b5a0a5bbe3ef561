package load

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// user is one simulated accountant, with the messages they will send in order.
type user struct {
	id   int64
	chat *chat
	msgs []*message
	rng  *rand.Rand // think times; seeded per user, so a run is repeatable
}

// scenario is a kind of message and the ways users phrase it.
type scenario struct {
	name   string
	weight int
	texts  []string
}

// scenarios is the mix of the run. Weights are relative; a follow-up is only asked right after
// a rates question (otherwise that message becomes a rates question). An upload sends one of
// the run's documents with a question about it as the caption; a document question asks
// another one later, only after the user has uploaded something (otherwise that message
// becomes an upload). Their texts come from the documents.
var scenarios = []scenario{
	{"rates", 16, []string{"курс доллара", "Какой курс евро на 15 января?", "курс юаня", "/rate EUR", "/rate USD"}},
	{"key_rate", 7, []string{"какая ключевая ставка", "/keyrate"}},
	{"ledger_1c", 18, []string{"кто нам должен на 31 марта", "Кто нам должен на 31 марта?", "/debts", "/debts 31.03.2026", "кому мы должны на 31 марта"}},
	{"small_talk", 8, []string{"привет", "спасибо!", "как дела?", "что ты умеешь?"}},
	{"knowledge_base", 14, []string{"что такое акт сверки", "что такое счёт-фактура", "чем отличается аванс от предоплаты"}},
	{"follow_up", 14, []string{"а в евро?", "а в юанях?", "а на конец февраля?"}},
	{"vague", 10, []string{"помоги", "сделай отчёт", "нужна справка"}},
	{"news", 8, []string{"новости про ключевую ставку", "/news НДС", "какие новости по НДС?", "свежие новости о курсе рубля", "/news"}},
	{"upload", 5, nil},
	{"doc_question", 5, nil},
}

// chatterTexts are group messages not addressed to the bot; it must stay silent.
var chatterTexts = []string{"коллеги, кто сегодня на созвоне?", "отчёт отправил", "спасибо всем", "акт подписали"}

// population is everything a run plays.
type population struct {
	users  []*user
	chats  []*chat
	groups int
}

// populate makes n users with m messages each; the first groups×groupSize users talk in
// groups (mentioning the bot), the rest in private chats. Uploads send one of docs.
func populate(n, m, groups, groupSize int, seed uint64, botUsername string, docs []*document) population {
	rng := rand.New(rand.NewPCG(seed, 0x10ad))
	total := 0
	for _, s := range scenarios {
		total += s.weight
	}
	pick := func() scenario {
		x := rng.IntN(total)
		for _, s := range scenarios {
			if x < s.weight {
				return s
			}
			x -= s.weight
		}
		return scenarios[0]
	}
	groups = min(groups, n/max(groupSize, 1))
	if groupSize <= 0 {
		groups = 0
	}
	var p population
	p.groups = groups
	groupChats := make([]*chat, groups)
	for g := range groupChats {
		groupChats[g] = &chat{id: -1001000000000 - int64(g), group: true, title: fmt.Sprintf("Бухгалтерия %d", g+1)}
		p.chats = append(p.chats, groupChats[g])
	}
	idx := 0
	for i := range n {
		u := &user{id: 100_000 + int64(i), rng: rand.New(rand.NewPCG(seed, uint64(i)+1))}
		if i < groups*groupSize {
			u.chat = groupChats[i/groupSize]
		} else {
			u.chat = &chat{id: u.id}
			p.chats = append(p.chats, u.chat)
		}
		prev := ""
		var uploaded *document // the user's last upload
		for range m {
			s := pick()
			switch {
			case s.name == "follow_up" && prev != "rates":
				s = scenarios[0]
			case s.name == "doc_question" && uploaded == nil:
				s = scenario{name: "upload"}
			}
			var msg *message
			switch s.name {
			case "upload":
				uploaded = newDocument(docs, u.msgs, rng)
				msg = newMessage(idx, u, s.name, uploaded.questions[rng.IntN(len(uploaded.questions))], botUsername)
				msg.upload = uploaded
			case "doc_question":
				msg = newMessage(idx, u, s.name, uploaded.questions[rng.IntN(len(uploaded.questions))], botUsername)
			default:
				msg = newMessage(idx, u, s.name, s.texts[rng.IntN(len(s.texts))], botUsername)
			}
			u.msgs = append(u.msgs, msg)
			idx++
			prev = s.name
		}
		p.users = append(p.users, u)
	}
	return p
}

// newDocument picks a document the user has not sent yet, any when they have sent them all.
func newDocument(docs []*document, sent []*message, rng *rand.Rand) *document {
	var fresh []*document
	for _, d := range docs {
		if !slices.ContainsFunc(sent, func(m *message) bool { return m.upload == d }) {
			fresh = append(fresh, d)
		}
	}
	if len(fresh) == 0 {
		fresh = docs
	}
	return fresh[rng.IntN(len(fresh))]
}

// newMessage phrases text for u's chat: in a group, a question mentions the bot and a command
// carries the bot's @username.
func newMessage(idx int, u *user, scen, text, botUsername string) *message {
	m := &message{idx: idx, user: u, chat: u.chat, scenario: scen, text: text, want: text, replied: make(chan struct{})}
	if cmd, ok := strings.CutPrefix(text, "/"); ok {
		name, args, _ := strings.Cut(cmd, " ")
		m.command, m.want = name, strings.TrimSpace(args)
		if u.chat.group {
			m.text = "/" + name + "@" + botUsername
			if args != "" {
				m.text += " " + args
			}
		}
		return m
	}
	if u.chat.group {
		m.text = "@" + botUsername + " " + text
		if idx%3 == 0 {
			m.text = "@" + botUsername + ", " + text // the bot drops the comma with the mention
		}
	}
	return m
}

// chatterFor is a group message to the colleagues, not to the bot.
func chatterFor(u *user) *message {
	text := chatterTexts[u.rng.IntN(len(chatterTexts))]
	return &message{idx: -1, user: u, chat: u.chat, scenario: "chatter", text: text, want: text, chatter: true,
		replied: make(chan struct{})}
}
