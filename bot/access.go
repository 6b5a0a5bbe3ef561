package bot

import "slices"

// Access says who may use the bot. Empty lists mean open.
type Access struct {
	Users  []int64 // users allowed everywhere
	Chats  []int64 // chats (groups) where everyone is allowed
	Admins []int64 // always allowed; may use /status
}

// allows reports whether userID may talk to the bot in chatID.
func (a Access) allows(userID, chatID int64) bool {
	if a.isAdmin(userID) {
		return true
	}
	if len(a.Users) == 0 && len(a.Chats) == 0 {
		return true
	}
	return slices.Contains(a.Users, userID) || slices.Contains(a.Chats, chatID)
}

func (a Access) isAdmin(userID int64) bool { return slices.Contains(a.Admins, userID) }
