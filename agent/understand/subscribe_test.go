package understand_test

import (
	"testing"
	"time"

	"github.com/finbot/finbot/agent/understand"
)

// Subscriptions said in words are the digest skill's; questions that share their words are not.
func TestSubscribePhrasings(t *testing.T) {
	p := understand.NewParser()
	now := time.Date(2026, 3, 2, 11, 0, 0, 0, time.UTC)
	for _, text := range []string{
		"подпиши меня на ключевую ставку",
		"Подпишите на утреннюю сводку",
		"хочу подписаться на курсы",
		"присылай курсы каждое утро в 9",
		"присылайте сводку по дебиторке по понедельникам в 10",
		"отправляй мне ежедневно курсы валют",
		"сообщай, если кто-то должен нам больше миллиона",
		"уведомляй о просрочке больше 30 дней",
		"уведоми меня, когда изменится ключевая ставка",
		"отпишись от утренней сводки",
		"отпиши меня от всего",
		"отмени все подписки",
		"мои подписки",
		"какие у меня подписки?",
	} {
		d := p.Parse(understand.Input{Text: text, Now: now})
		if d.Kind != understand.KindSubscribe || !d.Sure {
			t.Errorf("%q = %s (%s, sure %v), want subscribe", text, d.Kind, d.Rule, d.Sure)
		}
	}
	for _, text := range []string{
		"кто подписал акт сверки",
		"подписан ли договор с альфой",
		"присылай курсы",
		"курс доллара на утро",
		"сообщи, когда срок оплаты по договору аренды",
		"когда сдавать 6-НДФЛ",
		"ключевая ставка",
		"кто нам должен больше миллиона",
		"кто должен нам больше 30 дней",
		"что такое подписка на периодику в бухучёте",
	} {
		if d := p.Parse(understand.Input{Text: text, Now: now}); d.Kind == understand.KindSubscribe {
			t.Errorf("%q was taken for a subscription (%s)", text, d.Rule)
		}
	}
}
