// Package config reads finbot's settings from the environment once, reports every problem at
// the same time and keeps secrets out of every log and printout.
//
// It imports nothing of the project: main maps Config fields onto each component's options.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // DIGEST_ZONE is checked against the zones built in, as the digests read them
)

// Secret is a credential. It never prints: not via fmt, not via slog's text or JSON handlers,
// not via encoding/json.
type Secret string

// String hides the value from fmt.
func (Secret) String() string { return "[redacted]" }

// GoString hides the value from %#v.
func (Secret) GoString() string { return "[redacted]" }

// LogValue hides the value from slog.
func (Secret) LogValue() slog.Value { return slog.StringValue("[redacted]") }

// MarshalText hides the value from encoding/json and slog's JSON handler on nested structs.
func (Secret) MarshalText() ([]byte, error) { return []byte("[redacted]"), nil }

// Reveal returns the secret itself, for the one place that must hand it to a client.
func (s Secret) Reveal() string { return string(s) }

// Config is every setting finbot reads. Zero values are never used: Load fills defaults.
type Config struct {
	// Telegram.
	TelegramToken  Secret        // TELEGRAM_TOKEN: BotFather token; required by `serve` only
	TelegramAPIURL string        // TELEGRAM_API_URL: Bot API base, e.g. a local Bot API server or an emulator
	WebhookURL     string        // WEBHOOK_URL: public HTTPS URL; when set, serve uses a webhook instead of long polling
	WebhookListen  string        // WEBHOOK_LISTEN: address the webhook server listens on
	WebhookSecret  Secret        // WEBHOOK_SECRET: checked against X-Telegram-Bot-Api-Secret-Token
	PollTimeout    time.Duration // TELEGRAM_POLL_TIMEOUT: long-poll timeout of getUpdates
	StreamMode     string        // STREAM_MODE: auto, draft, edit or off; how answers show while written

	// Access.
	AllowedUserIDs []int64 // ALLOWED_USER_IDS: empty = everyone
	AllowedChatIDs []int64 // ALLOWED_CHAT_IDS: empty = every chat
	AdminUserIDs   []int64 // ADMIN_USER_IDS: may use /status; always allowed

	// Storage.
	RedisURL         Secret        // REDIS_URL: empty = in-memory history; a Secret because it may carry a password
	RedisPrefix      string        // REDIS_PREFIX: namespace of every key
	RedisCluster     bool          // REDIS_CLUSTER: REDIS_URL names the seed nodes of a Redis Cluster
	RedisSentinel    string        // REDIS_SENTINEL_MASTER: REDIS_URL names Sentinels that watch this master
	HistoryMaxTurns  int           // HISTORY_MAX_TURNS
	HistoryMaxChars  int           // HISTORY_MAX_CHARS
	HistoryTTL       time.Duration // HISTORY_TTL
	DedupeTTL        time.Duration // DEDUPE_TTL: how long a handled update_id is remembered
	ClaimLease       time.Duration // CLAIM_LEASE: how long a replica's claim on an update holds unless renewed
	MemoryChatsLimit int           // MEMORY_MAX_CHATS: conversations kept by the in-memory store

	// LLM.
	LLMBaseURL string        // LLM_BASE_URL: OpenAI-compatible API base
	LLMAPIKey  Secret        // LLM_API_KEY: empty = no LLM; routing and answers stay deterministic
	LLMModel   string        // LLM_MODEL
	LLMTimeout time.Duration // LLM_TIMEOUT: one LLM call
	LLMBudget  time.Duration // LLM_BUDGET: every LLM call of one answer together

	// Planner and answer (issue #6).
	PlannerModel            string        // PLANNER_MODEL: empty = LLM_MODEL
	AnswerModel             string        // ANSWER_MODEL: empty = LLM_MODEL
	PlannerTemperature      float64       // PLANNER_TEMPERATURE
	AnswerTemperature       float64       // ANSWER_TEMPERATURE
	PlannerMaxTokens        int           // PLANNER_MAX_TOKENS
	PlannerResponseFormat   string        // PLANNER_RESPONSE_FORMAT: json_schema or json_object
	PlanConfidenceThreshold float64       // PLAN_CONFIDENCE_THRESHOLD
	MaxToolCalls            int           // MAX_TOOL_CALLS
	PlanCacheTTL            time.Duration // PLAN_CACHE_TTL
	// LLMAnonymize is what is done with names, ИНН, accounts and the like in texts sent to the
	// LLM and the embeddings service (LLM_ANONYMIZE): mask, log, block or off.
	LLMAnonymize string

	// Bank of Russia and news.
	CBRURL        string        // CBR_URL: DailyInfo SOAP endpoint
	CBRTimeout    time.Duration // CBR_TIMEOUT: one call to the Bank of Russia
	CBRUserAgent  string        // CBR_USER_AGENT
	TavilyURL     string        // TAVILY_URL
	TavilyAPIKey  Secret        // TAVILY_API_KEY: empty = web news search off
	TavilyTimeout time.Duration // TAVILY_TIMEOUT: one attempt

	// 1C.
	OneCURL          string        // ONEC_URL: MCP toolkit proxy; empty = the embedded demo ledger
	OneCDemo         string        // ONEC_DEMO: which demo base answers without ONEC_URL: "default" or "realistic"
	OneCChannel      string        // ONEC_CHANNEL
	OneCToken        Secret        // ONEC_TOKEN
	OneCTimeout      time.Duration // ONEC_TIMEOUT
	OneCOrganization string        // ONEC_ORGANIZATION: INN or name of the main organization
	OneCRestricted   bool          // ONEC_RESTRICTED_USER: the 1C user has restricted rights (RLS)
	// OneCDefaultPaymentDays is the payment term of a contract without its own
	// (ONEC_DEFAULT_PAYMENT_DAYS); OneCAgingBuckets the bounds of days overdue of the aging
	// (ONEC_AGING_BUCKETS), ascending.
	OneCDefaultPaymentDays int
	OneCAgingBuckets       []int
	LedgerAllowUsers       []int64 // LEDGER_ALLOWED_USER_IDS
	LedgerAllowChats       []int64 // LEDGER_ALLOWED_CHAT_IDS
	// OneCChannels are the 1C bases of ONEC_CHANNELS (tokens from ONEC_CHANNEL_TOKENS); empty =
	// one base on ONEC_CHANNEL. OneCBases is the list either way.
	OneCChannels []OneCChannel

	// Circuit breakers: how long an open breaker waits before letting one probe call through.
	LLMBreakerTimeout    time.Duration // LLM_BREAKER_TIMEOUT (the embeddings' and speech-to-text's breakers too)
	CBRBreakerTimeout    time.Duration // CBR_BREAKER_TIMEOUT
	TavilyBreakerTimeout time.Duration // TAVILY_BREAKER_TIMEOUT
	OneCBreakerTimeout   time.Duration // ONEC_BREAKER_TIMEOUT

	// Documents and the knowledge base.
	EmbeddingsModel   string // EMBEDDINGS_MODEL: empty = lexical search only
	EmbeddingsBaseURL string // EMBEDDINGS_BASE_URL (defaults to LLM_BASE_URL)
	EmbeddingsAPIKey  Secret // EMBEDDINGS_API_KEY (defaults to LLM_API_KEY)
	DocsMaxPerOwner   int    // DOCS_MAX_PER_OWNER
	DocsMaxChars      int    // DOCS_MAX_CHARS
	DocsIndexCache    int    // DOCS_INDEX_CACHE
	DocsIndexCacheMB  int    // DOCS_INDEX_CACHE_MB
	DocsMaxIndexMB    int    // DOCS_MAX_INDEX_MB
	DocsBuildMemMB    int    // DOCS_BUILD_MEMORY_MB
	KBCSV             string // KB_CSV: knowledge base file used when the store has none

	// Voice messages.
	TranscribeModel   string        // TRANSCRIBE_MODEL: speech-to-text model; set empty = voice messages off
	TranscribeURL     string        // TRANSCRIBE_URL: OpenAI-compatible API base of speech-to-text; empty = LLM_BASE_URL
	TranscribeAPIKey  Secret        // TRANSCRIBE_API_KEY: empty = LLM_API_KEY, unless TRANSCRIBE_URL names another service
	TranscribeTimeout time.Duration // TRANSCRIBE_TIMEOUT: one transcription
	VoiceMaxDuration  time.Duration // VOICE_MAX_DURATION: longest voice message or audio file transcribed

	// Behaviour.
	AnswerTimeout   time.Duration // ANSWER_TIMEOUT: ceiling for one answer
	UserRatePerMin  int           // USER_RATE_PER_MIN: messages a user may send per minute
	UserRateBurst   int           // USER_RATE_BURST
	ShutdownTimeout time.Duration // SHUTDOWN_TIMEOUT: how long SIGTERM waits for answers in flight

	// Digests and alerts (/subscribe).
	DigestZone    string        // DIGEST_ZONE: time zone of chats that set none (IANA name)
	DigestEvery   time.Duration // DIGEST_CHECK_EVERY: how often a replica looks for due digests
	DigestCatchUp time.Duration // DIGEST_CATCHUP: how late a digest still goes out

	// Operations.
	MetricsAddr string     // METRICS_ADDR: /healthz and /metrics; empty disables
	LogLevel    slog.Level // LOG_LEVEL: debug, info, warn, error
}

// Default values, documented in the README.
const (
	DefaultLLMBaseURL = "https://openrouter.ai/api/v1"
	DefaultLLMModel   = "openai/gpt-4o-mini"
	// DefaultTranscribeModel is OpenAI's speech-to-text model.
	DefaultTranscribeModel = "whisper-1"
)

// Var describes one environment variable for the README and `finbot help`.
type Var struct {
	Name, Default, Description string
}

// Vars lists every variable Load reads, in README order.
func Vars() []Var {
	return []Var{
		{"TELEGRAM_TOKEN", "", "Bot token from @BotFather. Needed by `serve` only."},
		{"TELEGRAM_API_URL", "https://api.telegram.org", "Bot API base URL (local Bot API server, emulator)."},
		{"TELEGRAM_POLL_TIMEOUT", "30s", "Long-polling timeout of getUpdates."},
		{"STREAM_MODE", "auto", "How an answer shows in a private chat while it is written: auto = a native draft that grows (sendMessageDraft, Bot API 9.5), or a message edited once a second where the Bot API refuses drafts; draft = native drafts only; edit = edits only; off = the final answer only. Groups get the final answer only."},
		{"WEBHOOK_URL", "", "Public HTTPS URL of the webhook; set = webhook mode, empty = long polling."},
		{"WEBHOOK_LISTEN", ":8443", "Address the webhook HTTP server listens on."},
		{"WEBHOOK_SECRET", "", "Secret token Telegram sends in X-Telegram-Bot-Api-Secret-Token (1–256 of A-Z a-z 0-9 _ -). Required with WEBHOOK_URL."},
		{"ALLOWED_USER_IDS", "", "Comma-separated Telegram user IDs allowed to use the bot; empty = everyone."},
		{"ALLOWED_CHAT_IDS", "", "Comma-separated chat IDs (groups are negative) where everyone may use the bot; empty = every chat."},
		{"ADMIN_USER_IDS", "", "Comma-separated user IDs of administrators (/status); always allowed."},
		{"REDIS_URL", "", "redis://[user:pass@]host:port/db; empty = in-memory history that lives as long as the process. A Cluster or Sentinel lists further nodes as `?addr=host2:port&addr=host3:port`."},
		{"REDIS_CLUSTER", "false", "true: REDIS_URL names seed nodes of a Redis Cluster (`redis://[user:pass@]h1:p1?addr=h2:p2&addr=h3:p3`, database 0 only)."},
		{"REDIS_SENTINEL_MASTER", "", "Name of the master Redis Sentinel watches; set = REDIS_URL names the Sentinels (`redis://[sentinel-user:pass@]s1:26379?addr=s2:26379&password=…` — the user info authenticates to the Sentinels, `password=` to the master)."},
		{"REDIS_PREFIX", "finbot:", "Prefix of every Redis key (no `{` or `}`: the keys' hash tags follow it)."},
		{"HISTORY_MAX_TURNS", "20", "Messages (user + bot) kept per dialog."},
		{"HISTORY_MAX_CHARS", "8000", "Characters of history handed to the agent per answer."},
		{"HISTORY_TTL", "168h", "A dialog idle this long is forgotten."},
		{"DEDUPE_TTL", "24h", "How long a handled update_id is remembered."},
		{"CLAIM_LEASE", "30s", "How long a replica's claim on an update holds unless renewed (every third of it, while the answer runs): the longest an update of a replica that died waits before another replica answers it (webhook updates are kept in Redis until answered)."},
		{"MEMORY_MAX_CHATS", "10000", "Dialogs kept by the in-memory store (LRU)."},
		{"LLM_BASE_URL", DefaultLLMBaseURL, "OpenAI-compatible API base (OpenRouter by default)."},
		{"LLM_API_KEY", "", "API key of the LLM service; empty = no LLM (deterministic routing and answers)."},
		{"LLM_MODEL", DefaultLLMModel, "Model name as the LLM service spells it."},
		{"LLM_TIMEOUT", "30s", "Deadline of one LLM call."},
		{"LLM_BUDGET", "20s", "Time all LLM calls of one answer share (planner, repair, answer); when it runs out the answer is given from the facts, as without an LLM."},
		{"LLM_BREAKER_TIMEOUT", "30s", "After 3 failed LLM calls in a row its circuit breaker opens and answers go on without the LLM; this long later one probe call may close it. The embeddings' and speech-to-text's breakers too."},
		{"PLANNER_MODEL", "", "Model of the planner (the JSON query plan); empty = LLM_MODEL."},
		{"ANSWER_MODEL", "", "Model that phrases the answer from the collected facts; empty = LLM_MODEL."},
		{"PLANNER_TEMPERATURE", "0.1", "Sampling temperature of the planner (0–2)."},
		{"ANSWER_TEMPERATURE", "0.2", "Sampling temperature of the answer LLM (0–2)."},
		{"PLANNER_MAX_TOKENS", "1200", "Completion tokens the planner may spend on one plan."},
		{"PLANNER_RESPONSE_FORMAT", "json_schema", "json_schema sends the plan's JSON Schema (structured outputs); json_object only asks for JSON, for models without structured outputs."},
		{"PLAN_CONFIDENCE_THRESHOLD", "0.5", "Plans below this confidence (0–1) get one repair call, then the safe default plan."},
		{"MAX_TOOL_CALLS", "4", "Tool calls one plan may make, its fallback included (1–10)."},
		{"PLAN_CACHE_TTL", "10m", "How long a plan is reused for the same question in the same context."},
		{"LLM_ANONYMIZE", "mask", "Identifiers in everything sent to the LLM and the embeddings service: mask (placeholders, restored in the answer), log (sent as they are; counts logged), block (masked, and a request still holding one is not sent), off (for a self-hosted LLM)."},
		{"CBR_URL", "https://www.cbr.ru/DailyInfoWebServ/DailyInfo.asmx", "Bank of Russia DailyInfo SOAP endpoint."},
		{"CBR_TIMEOUT", "10s", "Deadline of one call to the Bank of Russia."},
		{"CBR_USER_AGENT", "finbot/1.0 (+https://github.com/finbot/finbot)", "User-Agent sent to the Bank of Russia (it blocks clients without one)."},
		{"CBR_BREAKER_TIMEOUT", "60s", "After 5 failed calls in a row the Bank of Russia's circuit breaker opens and the last fetched data is served, marked stale; this long later one probe call may close it."},
		{"TAVILY_URL", "https://api.tavily.com", "Tavily search API base."},
		{"TAVILY_API_KEY", "", "Tavily key (tvly-…); empty = /news searches only the Bank of Russia's news."},
		{"TAVILY_TIMEOUT", "10s", "Deadline of one Tavily attempt (up to 3 attempts)."},
		{"TAVILY_BREAKER_TIMEOUT", "60s", "After 5 failed searches in a row Tavily's circuit breaker opens; this long later one probe search may close it."},
		{"ONEC_URL", "", "1C MCP toolkit proxy, e.g. http://1c-host:6003 (set RESPONSE_FORMAT=json on it); empty = the embedded demo ledger."},
		{"ONEC_DEMO", "default", "Demo base without ONEC_URL: default (the small company every test checks) or realistic (generated at start-up: 1,537 counterparties, VAT invoices, currency, storno, a branch; answers cut at 1,000 rows like the proxy)."},
		{"ONEC_CHANNEL", "default", "Proxy channel of the infobase ([a-zA-Z0-9_-]{1,64})."},
		{"ONEC_TOKEN", "", "Bearer token of the proxy, if it requires one."},
		{"ONEC_TIMEOUT", "30s", "Deadline of one 1C query."},
		{"ONEC_ORGANIZATION", "", "INN or name of the main organization, for questions that name none (BP keeps it in each user's settings, which queries cannot read). Empty: the base's only organization; with several, the bot asks which one."},
		{"ONEC_RESTRICTED_USER", "false", "true: the 1C user the proxy runs under has restricted rights (RLS, e.g. by organization). The queries say ВЫБРАТЬ РАЗРЕШЕННЫЕ, and 1C then leaves out what the user may not see without saying so; every 1C figure is then stated as covering only what this user may see."},
		{"ONEC_DEFAULT_PAYMENT_DAYS", "0", "Payment term, in days after the settlement document, of a contract that has none of its own («Установлен срок оплаты по договору» off) — the aging's due date. Set it to BP's «Сроки оплаты покупателями» (the constant СрокОплатыПокупателей); 0 = due on the document's day, as BP with no term set."},
		{"ONEC_AGING_BUCKETS", "30,60,90", "Bounds of days overdue of the aging of receivables and payables (/aging), ascending, at most 6: 30,60,90 gives «не наступил срок», 1–30, 31–60, 61–90, более 90."},
		{"ONEC_BREAKER_TIMEOUT", "60s", "After 5 failed 1C queries in a row (timeouts, resets, 5xx; not errors in the query) its circuit breaker opens; this long later one probe query may close it."},
		{"LEDGER_ALLOWED_USER_IDS", "", "Users allowed to see 1C data. With a real 1C and both ledger lists empty, nobody is; with the demo ledger, everyone is."},
		{"LEDGER_ALLOWED_CHAT_IDS", "", "Chats (groups) whose members may see 1C data."},
		{"ONEC_CHANNELS", "", "Several 1C bases on the proxy at ONEC_URL, each its own channel, infobase and 1C user, and who may ask it: entries separated by ; or new lines, fields by |: channel|title|users=ID,ID|chats=ID|all|restricted|org=INN. The ledger lists stay the first gate; a user picks among their bases with /base. Empty = one base on ONEC_CHANNEL for everyone the ledger lists let through."},
		{"ONEC_CHANNEL_TOKENS", "", "Bearer tokens of the channels that have their own: channel=token; channel=token. Others use ONEC_TOKEN."},
		{"EMBEDDINGS_MODEL", "", "Embeddings model (e.g. openai/text-embedding-3-small) for dense document search; empty = lexical BM25 only."},
		{"EMBEDDINGS_BASE_URL", "", "OpenAI-compatible API base of the embeddings; empty = LLM_BASE_URL."},
		{"EMBEDDINGS_API_KEY", "", "Key of the embeddings API; empty = LLM_API_KEY."},
		{"DOCS_MAX_PER_OWNER", "200", "Documents one user (or one group) may keep."},
		{"DOCS_MAX_CHARS", "20000000", "Characters of text one user (or one group) may keep."},
		{"DOCS_INDEX_CACHE", "256", "Owners whose search index is kept in memory (LRU); others are rebuilt from storage on use."},
		{"DOCS_INDEX_CACHE_MB", "512", "Memory for those indexes (text, postings, vectors; estimated); least recently used owners are dropped first. The knowledge base has a budget of its own."},
		{"DOCS_MAX_INDEX_MB", "128", "Estimated memory one user's (or one group's) search index may take: a file that would take it further is refused, whatever its characters; 20000000 characters of ordinary text with 1,536-dimension vectors take about 120."},
		{"DOCS_BUILD_MEMORY_MB", "256", "Estimated memory the index builds of a replica may take at once (the first question after an upload or an eviction builds one); builds beyond it wait."},
		{"KB_CSV", "", "Knowledge base CSV loaded at start instead of the embedded sample when Redis holds none (see `finbot kb ingest`)."},
		{"TRANSCRIBE_MODEL", DefaultTranscribeModel, "Speech-to-text model of voice messages and audio files (POST /audio/transcriptions, language ru), as the service spells it (openai/whisper-1 on OpenRouter); set empty = voice messages are not transcribed."},
		{"TRANSCRIBE_URL", "", "OpenAI-compatible API base of speech-to-text (https://api.openai.com/v1, a self-hosted Whisper server, or LLM_BASE_URL named again); empty = voice messages are not transcribed. Voice recordings go to this service only."},
		{"TRANSCRIBE_API_KEY", "", "Key of the speech-to-text API; empty = LLM_API_KEY when TRANSCRIBE_URL is empty or LLM_BASE_URL (the LLM's key never goes to another service), else none. Transcription is on when TRANSCRIBE_URL is set."},
		{"TRANSCRIBE_TIMEOUT", "60s", "Deadline of one transcription."},
		{"VOICE_MAX_DURATION", "5m", "Longest voice message or audio file transcribed; longer ones are refused with a message (files over 20 MB always are: Telegram lets bots download no more)."},
		{"ANSWER_TIMEOUT", "90s", "Ceiling for preparing one answer."},
		{"USER_RATE_PER_MIN", "20", "Messages one user may send per minute before a flood notice."},
		{"USER_RATE_BURST", "5", "Messages one user may send at once."},
		{"SHUTDOWN_TIMEOUT", "30s", "On SIGTERM, how long answers in flight may take to finish."},
		{"DIGEST_ZONE", "Europe/Moscow", "Time zone (IANA name) of the digests of a chat that set none with /subscribe пояс."},
		{"DIGEST_CHECK_EVERY", "1m", "How often each replica looks for digests and alerts due (at whole multiples: a 9:00 digest goes at 9:00); 10s–1h."},
		{"DIGEST_CATCHUP", "3h", "How late a digest still goes out when no replica ran at its time (a restart, an outage); later, that day's is skipped. Alerts are checked at the latest hour whenever that is."},
		{"METRICS_ADDR", "127.0.0.1:9090", "Address of /healthz and /metrics for `serve` (loopback by default; \":9090\" serves every interface); empty disables."},
		{"LOG_LEVEL", "info", "debug, info, warn or error."},
	}
}

// Load reads the configuration through getenv, applying defaults, and reports every invalid
// value at once. A variable getenv returns empty is unset (its default applies); LoadLookup tells
// the two apart.
func Load(getenv func(string) string) (Config, error) {
	return LoadLookup(func(k string) (string, bool) {
		v := getenv(k)
		return v, v != ""
	})
}

// LoadLookup is Load through lookup, as os.LookupEnv reads the environment: a variable set empty
// where empty means something («METRICS_ADDR=»: no ops server) is not its default.
func LoadLookup(lookup func(string) (string, bool)) (Config, error) {
	defaults := make(map[string]string)
	for _, v := range Vars() {
		defaults[v.Name] = v.Default
	}
	r := reader{getenv: func(k string) string { v, _ := lookup(k); return v }, lookup: lookup, defaults: defaults}
	c := Config{
		TelegramToken:  Secret(r.str("TELEGRAM_TOKEN")),
		TelegramAPIURL: strings.TrimRight(r.url("TELEGRAM_API_URL"), "/"),
		PollTimeout:    r.duration("TELEGRAM_POLL_TIMEOUT", 0, time.Hour),
		StreamMode:     strings.ToLower(r.str("STREAM_MODE")),
		WebhookURL:     r.url("WEBHOOK_URL"),
		WebhookListen:  r.str("WEBHOOK_LISTEN"),
		WebhookSecret:  Secret(r.str("WEBHOOK_SECRET")),

		AllowedUserIDs: r.ids("ALLOWED_USER_IDS"),
		AllowedChatIDs: r.ids("ALLOWED_CHAT_IDS"),
		AdminUserIDs:   r.ids("ADMIN_USER_IDS"),

		RedisURL:         Secret(r.str("REDIS_URL")),
		RedisPrefix:      r.str("REDIS_PREFIX"),
		RedisCluster:     r.boolean("REDIS_CLUSTER"),
		RedisSentinel:    r.str("REDIS_SENTINEL_MASTER"),
		HistoryMaxTurns:  r.integer("HISTORY_MAX_TURNS", 2, 1000),
		HistoryMaxChars:  r.integer("HISTORY_MAX_CHARS", 200, 1_000_000),
		HistoryTTL:       r.duration("HISTORY_TTL", time.Minute, 0),
		DedupeTTL:        r.duration("DEDUPE_TTL", time.Minute, 0),
		ClaimLease:       r.duration("CLAIM_LEASE", time.Second, 10*time.Minute),
		MemoryChatsLimit: r.integer("MEMORY_MAX_CHATS", 1, 10_000_000),

		LLMBaseURL: strings.TrimRight(r.url("LLM_BASE_URL"), "/"),
		LLMAPIKey:  Secret(r.str("LLM_API_KEY")),
		LLMModel:   r.str("LLM_MODEL"),
		LLMTimeout: r.duration("LLM_TIMEOUT", time.Second, 10*time.Minute),
		LLMBudget:  r.duration("LLM_BUDGET", time.Second, 10*time.Minute),

		PlannerModel:            r.str("PLANNER_MODEL"),
		AnswerModel:             r.str("ANSWER_MODEL"),
		PlannerTemperature:      r.float("PLANNER_TEMPERATURE", 0, 2),
		AnswerTemperature:       r.float("ANSWER_TEMPERATURE", 0, 2),
		PlannerMaxTokens:        r.integer("PLANNER_MAX_TOKENS", 200, 32_000),
		PlannerResponseFormat:   r.str("PLANNER_RESPONSE_FORMAT"),
		PlanConfidenceThreshold: r.float("PLAN_CONFIDENCE_THRESHOLD", 0, 1),
		MaxToolCalls:            r.integer("MAX_TOOL_CALLS", 1, 10),
		PlanCacheTTL:            r.duration("PLAN_CACHE_TTL", time.Second, 24*time.Hour),
		LLMAnonymize:            strings.ToLower(r.str("LLM_ANONYMIZE")),

		CBRURL:        r.url("CBR_URL"),
		CBRTimeout:    r.duration("CBR_TIMEOUT", 100*time.Millisecond, 5*time.Minute),
		CBRUserAgent:  r.str("CBR_USER_AGENT"),
		TavilyURL:     strings.TrimRight(r.url("TAVILY_URL"), "/"),
		TavilyAPIKey:  Secret(r.str("TAVILY_API_KEY")),
		TavilyTimeout: r.duration("TAVILY_TIMEOUT", 100*time.Millisecond, 5*time.Minute),

		OneCURL:                r.url("ONEC_URL"),
		OneCChannel:            r.str("ONEC_CHANNEL"),
		OneCDemo:               r.oneOf("ONEC_DEMO", "default", "realistic"),
		OneCOrganization:       r.str("ONEC_ORGANIZATION"),
		OneCRestricted:         r.boolean("ONEC_RESTRICTED_USER"),
		OneCDefaultPaymentDays: r.integer("ONEC_DEFAULT_PAYMENT_DAYS", 0, MaxAgingDays),
		OneCAgingBuckets:       r.agingBuckets("ONEC_AGING_BUCKETS"),
		OneCToken:              Secret(r.str("ONEC_TOKEN")),
		OneCTimeout:            r.duration("ONEC_TIMEOUT", 100*time.Millisecond, 10*time.Minute),
		LedgerAllowUsers:       r.ids("LEDGER_ALLOWED_USER_IDS"),
		LedgerAllowChats:       r.ids("LEDGER_ALLOWED_CHAT_IDS"),

		LLMBreakerTimeout:    r.duration("LLM_BREAKER_TIMEOUT", 100*time.Millisecond, time.Hour),
		CBRBreakerTimeout:    r.duration("CBR_BREAKER_TIMEOUT", 100*time.Millisecond, time.Hour),
		TavilyBreakerTimeout: r.duration("TAVILY_BREAKER_TIMEOUT", 100*time.Millisecond, time.Hour),
		OneCBreakerTimeout:   r.duration("ONEC_BREAKER_TIMEOUT", 100*time.Millisecond, time.Hour),

		EmbeddingsModel:   r.str("EMBEDDINGS_MODEL"),
		EmbeddingsBaseURL: strings.TrimRight(r.url("EMBEDDINGS_BASE_URL"), "/"),
		EmbeddingsAPIKey:  Secret(r.str("EMBEDDINGS_API_KEY")),
		DocsMaxPerOwner:   r.integer("DOCS_MAX_PER_OWNER", 1, 100_000),
		DocsMaxChars:      r.integer("DOCS_MAX_CHARS", 1000, 2_000_000_000),
		DocsIndexCache:    r.integer("DOCS_INDEX_CACHE", 1, 1_000_000),
		DocsIndexCacheMB:  r.integer("DOCS_INDEX_CACHE_MB", 1, 1_000_000),
		DocsMaxIndexMB:    r.integer("DOCS_MAX_INDEX_MB", 1, 1_000_000),
		DocsBuildMemMB:    r.integer("DOCS_BUILD_MEMORY_MB", 1, 1_000_000),
		KBCSV:             r.str("KB_CSV"),

		TranscribeModel:   r.emptyable("TRANSCRIBE_MODEL"),
		TranscribeURL:     strings.TrimRight(r.url("TRANSCRIBE_URL"), "/"),
		TranscribeAPIKey:  Secret(r.str("TRANSCRIBE_API_KEY")),
		TranscribeTimeout: r.duration("TRANSCRIBE_TIMEOUT", time.Second, 10*time.Minute),
		VoiceMaxDuration:  r.duration("VOICE_MAX_DURATION", time.Second, 24*time.Hour),

		AnswerTimeout:   r.duration("ANSWER_TIMEOUT", time.Second, time.Hour),
		UserRatePerMin:  r.integer("USER_RATE_PER_MIN", 1, 10_000),
		UserRateBurst:   r.integer("USER_RATE_BURST", 1, 1000),
		ShutdownTimeout: r.duration("SHUTDOWN_TIMEOUT", 0, time.Hour),

		DigestZone:    r.str("DIGEST_ZONE"),
		DigestEvery:   r.duration("DIGEST_CHECK_EVERY", 10*time.Second, time.Hour),
		DigestCatchUp: r.duration("DIGEST_CATCHUP", time.Minute, 24*time.Hour),

		MetricsAddr: r.emptyable("METRICS_ADDR"),
		LogLevel:    r.level("LOG_LEVEL"),
	}
	c.channels(&r)
	if u := string(c.RedisURL); u != "" {
		if !strings.HasPrefix(u, "redis://") && !strings.HasPrefix(u, "rediss://") && !strings.HasPrefix(u, "unix://") {
			r.fail("REDIS_URL", "must start with redis://, rediss:// or unix://")
		} else if why := malformedURL(u); why != "" {
			r.fail("REDIS_URL", why)
		} else {
			c.checkRedisTopology(&r)
		}
	} else if c.RedisCluster || c.RedisSentinel != "" {
		r.fail("REDIS_URL", "is empty while REDIS_CLUSTER or REDIS_SENTINEL_MASTER is set")
	}
	if strings.ContainsAny(c.RedisPrefix, "{}") {
		r.fail("REDIS_PREFIX", "must not contain { or }: the keys' hash tags follow it (a Redis Cluster places keys by the first {…})")
	}
	if c.WebhookURL != "" {
		if !strings.HasPrefix(c.WebhookURL, "https://") {
			r.fail("WEBHOOK_URL", "must be an https:// URL (Telegram only calls HTTPS webhooks)")
		}
		if c.WebhookSecret == "" {
			r.fail("WEBHOOK_SECRET", "is required with WEBHOOK_URL, so that only Telegram can post updates")
		}
	}
	if s := string(c.WebhookSecret); s != "" && !validWebhookSecret(s) {
		r.fail("WEBHOOK_SECRET", "must be 1–256 characters of A-Z, a-z, 0-9, _ and -")
	}
	if c.EmbeddingsBaseURL == "" {
		c.EmbeddingsBaseURL = c.LLMBaseURL
	}
	if c.EmbeddingsAPIKey == "" {
		c.EmbeddingsAPIKey = c.LLMAPIKey
	}
	if c.EmbeddingsModel != "" && c.EmbeddingsAPIKey == "" {
		r.fail("EMBEDDINGS_MODEL", "is set but neither EMBEDDINGS_API_KEY nor LLM_API_KEY is")
	}
	if c.TranscribeAPIKey == "" && (c.TranscribeURL == "" || c.TranscribeURL == c.LLMBaseURL) {
		c.TranscribeAPIKey = c.LLMAPIKey
	}
	if m := c.LLMAnonymize; m != "mask" && m != "log" && m != "block" && m != "off" {
		r.fail("LLM_ANONYMIZE", fmt.Sprintf("must be mask, log, block or off, got %q", m))
	}
	if f := c.PlannerResponseFormat; f != "json_schema" && f != "json_object" {
		r.fail("PLANNER_RESPONSE_FORMAT", fmt.Sprintf("must be json_schema or json_object, got %q", f))
	}
	if m := c.StreamMode; m != "auto" && m != "draft" && m != "edit" && m != "off" {
		r.fail("STREAM_MODE", fmt.Sprintf("must be auto, draft, edit or off, got %q", m))
	}
	if _, err := time.LoadLocation(c.DigestZone); err != nil || c.DigestZone == "" || c.DigestZone == "Local" {
		r.fail("DIGEST_ZONE", fmt.Sprintf("must be a time zone of the IANA database, such as Europe/Moscow or Asia/Yekaterinburg, got %q", c.DigestZone))
	}
	if c.LLMAPIKey != "" && c.LLMModel == "" {
		r.fail("LLM_MODEL", "is empty while LLM_API_KEY is set")
	}
	return c, errors.Join(r.errs...)
}

// HasLLM reports whether an LLM is configured.
func (c Config) HasLLM() bool { return c.LLMAPIKey != "" }

// HasTranscription reports whether voice messages are transcribed: a model and a service the
// operator named (TRANSCRIBE_URL — a self-hosted server may need no key). The LLM's own
// service is not assumed to transcribe (OpenRouter, the default, does not take OpenAI's
// multipart form): naming it in TRANSCRIBE_URL turns voice on with the LLM's key.
func (c Config) HasTranscription() bool {
	return c.TranscribeModel != "" && c.TranscribeURL != ""
}

// TranscribeBaseURL is the API base voice recordings are sent to: TRANSCRIBE_URL, else the
// LLM's.
func (c Config) TranscribeBaseURL() string {
	if c.TranscribeURL != "" {
		return c.TranscribeURL
	}
	return c.LLMBaseURL
}

// Secrets returns the configured secret values, for log redaction.
func (c Config) Secrets() []string {
	var out []string
	for _, s := range []Secret{c.TelegramToken, c.WebhookSecret, c.LLMAPIKey, c.TavilyAPIKey, c.OneCToken, c.EmbeddingsAPIKey, c.TranscribeAPIKey} {
		if len(s) >= 4 {
			out = append(out, string(s))
		}
	}
	for _, ch := range c.OneCChannels {
		if len(ch.Token) >= 4 {
			out = append(out, string(ch.Token))
		}
	}
	for _, p := range redisPassword(string(c.RedisURL)) {
		if len(p) >= 4 {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) || len(out[i]) == len(out[j]) && out[i] < out[j] })
	out = slices.Compact(out) // the embeddings and speech keys usually are the LLM key
	return out
}

func validWebhookSecret(s string) bool {
	if len(s) > 256 {
		return false
	}
	for _, r := range s {
		ok := r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		if !ok {
			return false
		}
	}
	return true
}

type reader struct {
	getenv   func(string) string
	lookup   func(string) (string, bool)
	defaults map[string]string
	errs     []error
}

// emptyable is a variable whose empty value means something: set empty, it is empty; unset, its
// default.
func (r *reader) emptyable(key string) string {
	if v, ok := r.lookup(key); ok {
		return strings.TrimSpace(v)
	}
	return r.defaults[key]
}

func (r *reader) fail(key, msg string) {
	r.errs = append(r.errs, fmt.Errorf("%s %s", key, msg))
}

func (r *reader) str(key string) string {
	if v := strings.TrimSpace(r.getenv(key)); v != "" {
		return v
	}
	return r.defaults[key]
}

// oneOf reads a setting that takes one of a few words (case-insensitive).
func (r *reader) oneOf(key string, words ...string) string {
	v := strings.ToLower(r.str(key))
	if !slices.Contains(words, v) {
		r.fail(key, fmt.Sprintf("must be one of %s, got %q", strings.Join(words, ", "), v))
		return r.defaults[key]
	}
	return v
}

func (r *reader) url(key string) string {
	v := r.str(key)
	if v == "" {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// Quoted redacted: a URL may carry a password or a token (redactURL), and these
		// errors are printed before any redactor exists.
		r.fail(key, fmt.Sprintf("must be an http(s) URL, got %q", redactURL(v)))
		return ""
	}
	return v
}

func (r *reader) boolean(key string) bool {
	v := r.str(key)
	b, err := strconv.ParseBool(v)
	if err != nil {
		r.fail(key, fmt.Sprintf("must be true or false, got %q", v))
	}
	return b
}

func (r *reader) integer(key string, lo, hi int) int {
	v := r.str(key)
	n, err := strconv.Atoi(v)
	if err != nil {
		r.fail(key, fmt.Sprintf("must be a whole number, got %q", v))
		return 0
	}
	if n < lo || n > hi {
		r.fail(key, fmt.Sprintf("must be between %d and %d, got %d", lo, hi, n))
	}
	return n
}

func (r *reader) float(key string, lo, hi float64) float64 {
	v := r.str(key)
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) {
		r.fail(key, fmt.Sprintf("must be a number such as 0.5, got %q", v))
		return 0
	}
	if f < lo || f > hi {
		r.fail(key, fmt.Sprintf("must be between %g and %g, got %g", lo, hi, f))
	}
	return f
}

func (r *reader) duration(key string, lo, hi time.Duration) time.Duration {
	v := r.str(key)
	d, err := time.ParseDuration(v)
	if err != nil {
		r.fail(key, fmt.Sprintf("must be a duration such as 30s or 2m, got %q", v))
		return 0
	}
	if d < lo || (hi > 0 && d > hi) {
		r.fail(key, fmt.Sprintf("is out of range: %s", d))
	}
	return d
}

// MaxAgingBuckets and MaxAgingDays bound ONEC_AGING_BUCKETS (the aging template takes six
// bounds: integrations/onec.AgingBounds, which internal/app checks against) and the days of a
// payment term or a bound.
const (
	MaxAgingBuckets = 6
	MaxAgingDays    = 3650
)

// agingBuckets reads bounds of days overdue: whole numbers, ascending, separated by commas.
func (r *reader) agingBuckets(key string) []int {
	v := r.str(key)
	var out []int
	for part := range strings.SplitSeq(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		switch {
		case err != nil:
			r.fail(key, fmt.Sprintf("must list whole numbers of days separated by commas, such as 30,60,90, got %q", v))
			return nil
		case n < 1 || n > MaxAgingDays:
			r.fail(key, fmt.Sprintf("must list days between 1 and %d, got %d", MaxAgingDays, n))
			return nil
		case len(out) > 0 && n <= out[len(out)-1]:
			r.fail(key, fmt.Sprintf("must ascend, got %d after %d", n, out[len(out)-1]))
			return nil
		}
		out = append(out, n)
	}
	if len(out) > MaxAgingBuckets {
		r.fail(key, fmt.Sprintf("must list at most %d bounds, got %d", MaxAgingBuckets, len(out)))
		return nil
	}
	return out
}

func (r *reader) ids(key string) []int64 {
	v := r.str(key)
	if v == "" {
		return nil
	}
	var out []int64
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil || id == 0 {
			r.fail(key, fmt.Sprintf("must list numeric Telegram IDs, got %q", f))
			continue
		}
		out = append(out, id)
	}
	return out
}

func (r *reader) level(key string) slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(r.str(key))); err != nil {
		r.fail(key, fmt.Sprintf("must be debug, info, warn or error, got %q", r.str(key)))
	}
	return l
}

// malformedURL says why raw is not a URL, without quoting it: net/url's errors quote the
// whole URL, password included. Empty when it parses.
func malformedURL(raw string) string {
	_, err := url.Parse(raw)
	if err == nil {
		return ""
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	switch e := err.(type) {
	case url.EscapeError, url.InvalidHostError:
		return "is not a valid URL: a bad %-escape or character in it (percent-encode special characters of the user name and password)"
	default:
		msg := e.Error()
		if strings.Contains(msg, "userinfo") {
			return "is not a valid URL: invalid user name or password (percent-encode special characters)"
		}
		if strings.Contains(msg, "port") {
			return "is not a valid URL: invalid port"
		}
		return "is not a valid URL"
	}
}
