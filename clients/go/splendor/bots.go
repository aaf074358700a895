package splendor

import (
	"fmt"
	"math/rand"
	"strings"

	pb "splendor-engine/clients/go/splendorv1"
)

// Bot chooses one of the legal actions of the seat that must act (legal is never empty).
type Bot interface {
	Choose(legal []*pb.LegalAction) *pb.LegalAction
}

// RandomBot chooses uniformly among the legal actions, from its seed.
type RandomBot struct{ rng *rand.Rand }

// NewRandomBot is a RandomBot seeded with seed.
func NewRandomBot(seed int64) *RandomBot { return &RandomBot{rng: rand.New(rand.NewSource(seed))} }

// Choose implements Bot.
func (b *RandomBot) Choose(legal []*pb.LegalAction) *pb.LegalAction {
	return legal[b.rng.Intn(len(legal))]
}

// GreedyBot buys the card worth the most prestige it can afford (the legal actions list only purchases the
// seat can pay for), else takes three gems, else two, else reserves the card worth most, else anything;
// it never passes while it may do something else. Ties are broken at random, from its seed.
type GreedyBot struct {
	rng    *rand.Rand
	points map[uint32]uint32 // prestige by card id
}

// NewGreedyBot is a GreedyBot reading the cards' prestige from the catalog.
func NewGreedyBot(catalog *pb.Catalog, seed int64) *GreedyBot {
	points := make(map[uint32]uint32, len(catalog.GetCards()))
	for _, card := range catalog.GetCards() {
		points[card.GetId()] = card.GetPoints()
	}
	return &GreedyBot{rng: rand.New(rand.NewSource(seed)), points: points}
}

// Choose implements Bot.
func (b *GreedyBot) Choose(legal []*pb.LegalAction) *pb.LegalAction {
	best := []*pb.LegalAction{}
	bestScore := -1 << 30
	for _, option := range legal {
		score := b.score(option.GetAction())
		if score > bestScore {
			best, bestScore = best[:0], score
		}
		if score == bestScore {
			best = append(best, option)
		}
	}
	return best[b.rng.Intn(len(best))]
}

func (b *GreedyBot) score(action *pb.Action) int {
	switch kind := action.GetKind().(type) {
	case *pb.Action_PurchaseCard:
		return 1000 + 10*int(b.points[kind.PurchaseCard.GetCardId()])
	case *pb.Action_TakeGems:
		return 300 + len(kind.TakeGems.GetColors())
	case *pb.Action_TakeTwoGems:
		return 250
	case *pb.Action_ReserveCard:
		return 100 + int(b.points[kind.ReserveCard.GetCardId()])
	case *pb.Action_ReserveFromDeck:
		return 50
	case *pb.Action_ReturnTokens: // keep gold: it pays for anything
		return -100 * int(kind.ReturnTokens.GetTokens().GetGold())
	case *pb.Action_Pass:
		return -1000
	default: // a decision's answers: any will do
		return 0
	}
}

// Player is who plays a seat: a Bot choosing among the legal actions, or a policy of the server
// (Catalog.bot_policies: "random", "greedy", "ismcts") choosing for it.
type Player struct {
	Bot          Bot
	ServerPolicy string
	// Label names the player in messages (NewPlayer sets it to the name it was given).
	Label string
}

// Name is how the player is shown: its label, else its policy ("server:greedy") or its bot's type.
func (p Player) Name() string {
	switch {
	case p.Label != "":
		return p.Label
	case p.Bot == nil:
		return "server:" + p.ServerPolicy
	}
	return fmt.Sprintf("%T", p.Bot)
}

// NewPlayer is the player named name: "random" or "greedy" (bots of this package, seeded with seed), or
// "server:POLICY" (the server's policy).
func NewPlayer(name string, catalog *pb.Catalog, seed int64) (Player, error) {
	switch {
	case name == "random":
		return Player{Bot: NewRandomBot(seed), Label: name}, nil
	case name == "greedy":
		return Player{Bot: NewGreedyBot(catalog, seed), Label: name}, nil
	case strings.HasPrefix(name, "server:"):
		policy := strings.TrimPrefix(name, "server:")
		for _, known := range catalog.GetBotPolicies() {
			if known == policy {
				return Player{ServerPolicy: policy, Label: name}, nil
			}
		}
		return Player{}, fmt.Errorf("the server has no policy %q (it has %s)", policy, strings.Join(catalog.GetBotPolicies(), ", "))
	}
	return Player{}, fmt.Errorf("unknown player %q: use random, greedy or server:POLICY", name)
}
