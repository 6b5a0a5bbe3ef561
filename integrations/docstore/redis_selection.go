package docstore

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

// Select adds ids to (on) or removes them from (!on) selector's selection
// within owner. Selecting an id that owner does not have returns
// ErrNotFound and changes nothing.
func (r *Redis) Select(ctx context.Context, owner string, selector int64, ids []string, on bool) error {
	if err := checkIDs(owner, ids); err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	k := r.keys(owner)
	members := make([]any, len(ids))
	for i, id := range ids {
		members[i] = id
	}
	if !on {
		if err := r.rdb.SRem(ctx, k.sel(selector), members...).Err(); err != nil {
			return wrapErr(err, "unselect %q/%d", owner, selector)
		}
		return nil
	}
	err := r.txn(ctx, func(tx *redis.Tx) error {
		found, err := tx.HMGet(ctx, k.meta(), ids...).Result()
		if err != nil {
			return err
		}
		for i, v := range found {
			if v == nil {
				return notFound(owner, ids[i])
			}
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.SAdd(ctx, k.sel(selector), members...)
			p.SAdd(ctx, k.sels(), selector)
			return nil
		})
		return err
	}, k.meta())
	if err != nil {
		return wrapErr(err, "select %q/%d", owner, selector)
	}
	return nil
}

// ClearSelection empties selector's selection within owner.
func (r *Redis) ClearSelection(ctx context.Context, owner string, selector int64) error {
	if err := checkOwner(owner); err != nil {
		return err
	}
	k := r.keys(owner)
	_, err := r.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, k.sel(selector))
		p.SRem(ctx, k.sels(), selector)
		return nil
	})
	if err != nil {
		return wrapErr(err, "clear selection %q/%d", owner, selector)
	}
	return nil
}

// Selection returns the ids selector selected within owner that still
// exist, in List order.
func (r *Redis) Selection(ctx context.Context, owner string, selector int64) ([]string, error) {
	if err := checkOwner(owner); err != nil {
		return nil, err
	}
	k := r.keys(owner)
	ids, err := r.rdb.SMembers(ctx, k.sel(selector)).Result()
	if err != nil {
		return nil, wrapErr(err, "selection %q/%d", owner, selector)
	}
	if len(ids) == 0 {
		return []string{}, nil
	}
	found, err := r.rdb.HMGet(ctx, k.meta(), ids...).Result()
	if err != nil {
		return nil, wrapErr(err, "selection %q/%d", owner, selector)
	}
	ms := make([]Meta, 0, len(found))
	for _, v := range found {
		raw, ok := v.(string)
		if !ok {
			continue // deleted, or dropped by Replace
		}
		m, err := decodeMeta([]byte(raw))
		if err != nil {
			return nil, wrapErr(err, "selection %q/%d", owner, selector)
		}
		ms = append(ms, m)
	}
	return sortedIDs(ms), nil
}

// SetReceipt remembers that the bot's message (chatID, messageID) is the
// receipt of owner's document id. It returns ErrNotFound when owner has no
// such document.
func (r *Redis) SetReceipt(ctx context.Context, owner string, chatID int64, messageID int, id string) error {
	if err := checkIDs(owner, []string{id}); err != nil {
		return err
	}
	k := r.keys(owner)
	err := r.txn(ctx, func(tx *redis.Tx) error {
		ok, err := tx.HExists(ctx, k.meta(), id).Result()
		if err != nil {
			return err
		}
		if !ok {
			return notFound(owner, id)
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.HSet(ctx, k.rcpt(), receiptField(chatID, messageID), id)
			return nil
		})
		return err
	}, k.meta())
	if err != nil {
		return wrapErr(err, "set receipt %q/%q", owner, id)
	}
	return nil
}

// Receipt returns the id of the document whose receipt is the bot's message
// (chatID, messageID). It returns ErrNotFound when the message is unknown
// or the document was deleted.
func (r *Redis) Receipt(ctx context.Context, owner string, chatID int64, messageID int) (string, error) {
	if err := checkOwner(owner); err != nil {
		return "", err
	}
	k := r.keys(owner)
	id, err := r.rdb.HGet(ctx, k.rcpt(), receiptField(chatID, messageID)).Result()
	if errors.Is(err, redis.Nil) {
		return "", receiptNotFound(owner, chatID, messageID)
	}
	if err != nil {
		return "", wrapErr(err, "receipt %q", owner)
	}
	ok, err := r.rdb.HExists(ctx, k.meta(), id).Result()
	if err != nil {
		return "", wrapErr(err, "receipt %q", owner)
	}
	if !ok {
		return "", receiptNotFound(owner, chatID, messageID)
	}
	return id, nil
}
