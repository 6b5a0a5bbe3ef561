package bot

import (
	"context"

	"github.com/finbot/finbot/agent/api"
)

// command is one entry of the command menu.
type command struct {
	name        string
	description string // Russian, shown in the Telegram menu and /help
	adminOnly   bool
	hidden      bool // not in the menu or /help (button payloads)
	handle      func(ctx context.Context, c *core, in incoming) error
}

// commands is every command the bot understands, in menu order. /help and setMyCommands are
// built from it, so the two can never disagree.
func commands() []command {
	return []command{
		{name: "start", description: "Начать работу и узнать, что я умею", handle: handleStart},
		{name: "help", description: "Список команд и примеры вопросов", handle: handleHelp},
		{name: "rate", description: "Курсы ЦБ: /rate, /rate EUR, /rate USD 15.01.2026, /rate CNY март 2026", handle: handleAgentCommand},
		{name: "keyrate", description: "Ключевая ставка ЦБ: /keyrate, /keyrate 2025", handle: handleAgentCommand},
		{name: "news", description: "Новости: /news НДС; без слов — новости Банка России", handle: handleAgentCommand},
		{name: "debts", description: "Кто нам должен: /debts, /debts 31.03.2026", handle: handleAgentCommand},
		{name: "payables", description: "Кому должны мы: /payables, /payables на конец февраля", handle: handleAgentCommand},
		{name: "balance", description: "Остаток по счёту: /balance 51, /balance 62.01 31.03.2026", handle: handleAgentCommand},
		{name: "aging", description: "Просрочка по срокам долга: /aging, /aging 31.03.2026, /aging поставщики", handle: handleAgentCommand},
		{name: "act", description: "Акт сверки с контрагентом: /act Альфа 1 кв, /act Альфа 01.01.2026 31.03.2026", handle: handleAgentCommand},
		{name: "sverka", description: "Акт сверки (то же, что /act): /sverka Альфа за март", handle: handleAgentCommand},
		{name: "card", description: "Карточка контрагента: /card Альфа, /card 9366414049, /card Альфа 31.03.2026", handle: handleAgentCommand},
		{name: "offsets", description: "Встречные долги для взаимозачёта: /offsets, /offsets 31.03.2026", handle: handleAgentCommand},
		{name: "stock", description: "Остатки товаров и материалов в количестве: /stock, /stock бумага, /stock 41 31.03.2026", handle: handleAgentCommand},
		{name: "base", description: "База 1С: из какой базы отвечать, если вам открыто несколько", handle: handleAgentCommand},
		{name: "docs", description: "Мои документы: выбрать для вопросов, снять выбор, удалить", handle: handleAgentCommand},
		{name: "subscribe", description: "Сводки и уведомления: /subscribe утро 9:00, /subscribe ставка, /subscribe должник 1000000", handle: handleAgentCommand},
		{name: "subscriptions", description: "Подписки этого чата", handle: handleAgentCommand},
		{name: "unsubscribe", description: "Отписаться: /unsubscribe утро, /unsubscribe все", handle: handleAgentCommand},
		{name: "digest", description: "Сводка сейчас: /digest утро, /digest неделя", handle: handleAgentCommand},
		{name: "reset", description: "Забыть историю диалога и начать заново", handle: handleReset},
		{name: "cancel", description: "Остановить подготовку текущего ответа", handle: handleCancel},
		{name: "status", description: "Состояние сервисов (для администраторов)", adminOnly: true, handle: handleStatus},
		{name: "debug", description: "Отладка ответов 1С: /debug on, /debug off (для администраторов)", adminOnly: true, handle: handleDebug},
		{name: "drill", hidden: true, handle: handleAgentCommand},
		{name: "doc", hidden: true, handle: handleAgentCommand},
		{name: "page", hidden: true, handle: handlePage},
	}
}

func (c *core) lookup(name string) (command, bool) {
	for _, cmd := range c.commands {
		if cmd.name == name {
			return cmd, true
		}
	}
	return command{}, false
}

func (c *core) known(name string) bool {
	_, ok := c.lookup(name)
	return ok
}

func (c *core) runCommand(ctx context.Context, in incoming) error {
	cmd, ok := c.lookup(in.command)
	label := in.command
	if !ok {
		label = "other" // an invented /command must not add a series to /metrics
	}
	c.metrics.routes.WithLabelValues(string(api.Command), label).Inc()
	if !ok {
		c.reply(ctx, in, "Не знаю такой команды. Список команд — /help.")
		return nil
	}
	if cmd.adminOnly && !c.access.isAdmin(in.userID) {
		c.reply(ctx, in, "Эта команда доступна только администраторам бота.")
		return nil
	}
	return cmd.handle(ctx, c, in)
}
