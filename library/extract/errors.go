package extract

import (
	"context"
	"errors"
	"fmt"
)

// Refusal reasons. Every error returned by Extract matches exactly one of them with errors.Is
// (or is the caller's context error); UserMessage turns it into a Russian sentence for the user.
var (
	// ErrTooLarge: the file, its text, its page count or its processing time exceeds Limits.
	ErrTooLarge = errors.New("extract: file too large")
	// ErrUnknownType: not a PDF, DOCX, XLSX or text file (images, archives, .doc/.xls, RTF…).
	ErrUnknownType = errors.New("extract: unsupported file type")
	// ErrEncrypted: the document needs a password to be opened.
	ErrEncrypted = errors.New("extract: encrypted document")
	// ErrScanned: a PDF whose pages yield (almost) no text.
	ErrScanned = errors.New("extract: no text layer (scanned document)")
	// ErrEmpty: a readable file without any text.
	ErrEmpty = errors.New("extract: no text")
	// ErrMalformed: a damaged or truncated file, or one whose content contradicts its extension.
	ErrMalformed = errors.New("extract: malformed file")
	// ErrBomb: a compressed file (DOCX, XLSX, PDF streams) that inflates beyond Limits.MaxUncompressed.
	ErrBomb = errors.New("extract: decompresses beyond the limit")
	// ErrTooComplex: a structure beyond what a real document has — nesting depth, element or
	// object counts, the size of one element or string — refused before it costs memory.
	ErrTooComplex = errors.New("extract: structure too complex")
)

// Kinds lists every refusal reason, in the order UserMessage tries them.
var Kinds = []error{ErrTooLarge, ErrUnknownType, ErrEncrypted, ErrScanned, ErrEmpty, ErrMalformed, ErrBomb, ErrTooComplex}

// extractError carries a refusal reason (kind), an optional Russian message that replaces the
// kind's default one, and an optional cause kept for logs.
type extractError struct {
	kind   error
	msg    string // complete Russian sentence(s) for the user; "" = the kind's default
	detail string // English detail for logs
	cause  error
}

func (e *extractError) Error() string {
	s := e.kind.Error()
	if e.detail != "" {
		s += ": " + e.detail
	}
	if e.cause != nil {
		s += ": " + e.cause.Error()
	}
	return s
}

func (e *extractError) Unwrap() []error {
	if e.cause != nil {
		return []error{e.kind, e.cause}
	}
	return []error{e.kind}
}

func newErr(kind error, msg, detail string, cause error) error {
	return &extractError{kind: kind, msg: msg, detail: detail, cause: cause}
}

func malformed(format string, cause error) error {
	return newErr(ErrMalformed, "", format, cause)
}

var defaultMessages = []struct {
	kind error
	msg  string
}{
	{ErrTooLarge, "Файл слишком большой для обработки. Разделите его на части или пришлите только нужные страницы."},
	{ErrUnknownType, "Этот формат я не читаю. Пришлите PDF с текстовым слоем, DOCX, XLSX или текстовый файл (TXT, MD, CSV)."},
	{ErrEncrypted, "Документ защищён паролем, и прочитать его я не могу. Снимите пароль (сохраните копию без защиты) и пришлите файл снова."},
	{ErrScanned, "Это скан без текстового слоя: распознавание текста я не выполняю. Пришлите PDF с текстом или DOCX."},
	{ErrEmpty, "В файле нет текста: он пустой или содержит только картинки и оформление."},
	{ErrMalformed, "Файл повреждён или сохранён с ошибками, открыть его не получилось. Пересохраните документ (например, «Сохранить как» PDF или DOCX) и пришлите снова."},
	{ErrBomb, "Файл распаковывается в слишком большой объём, такие файлы я не обрабатываю. Проверьте документ или разделите его на части."},
	{ErrTooComplex, "Файл слишком сложно устроен или повреждён: в нём больше вложенности или элементов, чем бывает в настоящих документах, и читать его я не стал. Пересохраните документ (например, «Сохранить как» PDF или DOCX) и пришлите снова."},
}

// UserMessage returns a Russian explanation of err for the user of the bot, or "" for nil.
// Errors that are not refusal reasons (cancellation, unexpected failures) get a generic message.
func UserMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *extractError
	if errors.As(err, &e) && e.msg != "" {
		return e.msg
	}
	for _, m := range defaultMessages {
		if errors.Is(err, m.kind) {
			return m.msg
		}
	}
	switch {
	case errors.Is(err, context.Canceled):
		return "Обработка файла прервана. Пришлите его ещё раз."
	case errors.Is(err, context.DeadlineExceeded):
		return "Не успел обработать файл вовремя. Попробуйте ещё раз или пришлите файл поменьше."
	}
	return "Не удалось прочитать файл. Пересохраните его в PDF или DOCX и пришлите снова."
}

// mb formats a byte count in megabytes the Russian way ("20 МБ", "25,3 МБ").
func mb(n int64) string {
	v := float64(n) / (1 << 20)
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d МБ", int64(v))
	}
	s := fmt.Sprintf("%.1f МБ", v)
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			s = s[:i] + "," + s[i+1:]
			break
		}
	}
	return s
}
