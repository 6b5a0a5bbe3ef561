package bot

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the bot's Prometheus series.
type Metrics struct {
	updates *prometheus.CounterVec
	replies prometheus.Counter
	errors  *prometheus.CounterVec
	latency *prometheus.HistogramVec
	routes  *prometheus.CounterVec
	// streamEdits counts edits of messages that show answers while they are written.
	streamEdits prometheus.Counter
	// streamDrafts counts native drafts (sendMessageDraft) shown while answers are written.
	streamDrafts prometheus.Counter
	// digests counts the digests and alerts delivered (Bot.Deliver).
	digests prometheus.Counter
}

// NewMetrics creates the series and registers them with reg (nil: not registered, for tests
// and the console).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		updates: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "finbot_updates_total", Help: "Telegram updates by outcome (accepted, ignored, duplicate, deferred, released, refused, flood; from the webhook inbox: taken_over, abandoned after too many takeovers, died_on when the instance answering it died).",
		}, []string{"outcome"}),
		replies: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "finbot_replies_total", Help: "Messages sent to users.",
		}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "finbot_errors_total", Help: "Errors by where they happened.",
		}, []string{"kind"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "finbot_answer_seconds", Help: "Time from accepting a message to the reply being sent.",
			Buckets: []float64{0.005, 0.025, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120},
		}, []string{"kind"}),
		routes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "finbot_routes_total", Help: "Answered messages by scenario and kind (agent/understand's vocabulary).",
		}, []string{"scenario", "kind"}),
		streamEdits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "finbot_stream_edits_total", Help: "Edits of messages that show answers while they are written, the final formatted edit included.",
		}),
		streamDrafts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "finbot_stream_drafts_total", Help: "Native drafts (sendMessageDraft) shown while answers are written.",
		}),
		digests: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "finbot_digests_total", Help: "Digests and alerts of subscriptions delivered.",
		}),
	}
	if reg != nil {
		reg.MustRegister(m.updates, m.replies, m.errors, m.latency, m.routes, m.streamEdits, m.streamDrafts, m.digests)
	}
	return m
}
