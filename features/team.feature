@TEAM
Feature: Playing in teams
  Four players may play two against two, and six players three against three or in three teams
  of two. Partners sit so that the turn alternates between teams: opposite each other in 2v2 and
  in three teams of two, on every other seat in 3v3. Partners never attack each other, never
  throw in on each other and never transfer to each other: they gang up on the other side. A team
  whose members have all gone out has finished; the last team still holding cards loses, and its
  member holding cards is the fool.

  Rule: Team seating
    @R-TEAM-1 @opt:teams=2v2
    Scenario: Two against two: partners sit opposite
      Given a 4-player podkidnoy game
      And the deck is shuffled with seed 3
      When the game is dealt
      Then player 0 is in team 0
      And player 1 is in team 1
      And player 2 is in team 0
      And player 3 is in team 1

    @R-TEAM-1 @opt:teams=3v3
    Scenario: Three against three: the teams alternate round the table
      Given a 6-player podkidnoy game
      And the deck is shuffled with seed 3
      When the game is dealt
      Then player 0 is in team 0
      And player 1 is in team 1
      And player 2 is in team 0
      And player 3 is in team 1
      And player 4 is in team 0
      And player 5 is in team 1

    @R-TEAM-1 @opt:teams=2v2v2
    Scenario: Three teams of two: partners sit opposite
      Given a 6-player podkidnoy game
      And the deck is shuffled with seed 3
      When the game is dealt
      Then player 0 is in team 0
      And player 1 is in team 1
      And player 2 is in team 2
      And player 3 is in team 0
      And player 4 is in team 1
      And player 5 is in team 2

    @R-TEAM-1 @R-DECK-4 @opt:teams=2v2
    Scenario: Two against two needs exactly four players
      Given a 6-player podkidnoy game
      And the deck is shuffled with seed 3
      Then the game cannot be set up

  Rule: Partners never play against each other
    Background:
      Given the trump suit is spades

    @R-TEAM-2 @R-THROW-3 @opt:teams=2v2 @opt:throw_in_priority=free
    Scenario: The defender's partner may not throw in; the attacker's partner may
      It is the first bout of the game: the players began it with the six cards dealt, and
      player 0 leads because his 6S is the lowest trump dealt.

      Given a 4-player podkidnoy game
      And the discard pile is empty
      And player 0 holds KD, AD, 6S, 8D, TD
      And player 1 holds 9C, JC, QC, 8H, 9H, TH
      And player 2 holds 7D, KH, 6H, JH, 6D, JD
      And player 3 holds 7H, KS, 8C, TC, QH, AH
      And player 0 has attacked with 7C
      Then player 2 may throw in 7D
      And player 3 may not throw in 7H
      When player 3 throws in 7H
      Then the move is refused citing R-THROW-3

    @R-TEAM-2 @R-ROLE-2 @opt:teams=2v2
    Scenario: When the next player is out, the attack skips his partner
      Player 2 is out; player 1 attacks next, and the next player still in after him is his own
      partner, player 3, who is passed over.

      Given a 4-player podkidnoy game
      And the talon is empty
      And player 2 is out
      And player 0 holds 7C, KD
      And player 1 holds 9C, QH, AH
      And player 3 holds 8D, JD, 9D
      And player 0 is the attacker
      When player 0 attacks with 7C
      And the defender beats 7C with 9C
      And player 0 passes
      Then the bout ends and its cards are discarded
      And player 1 attacks next
      And the defender is player 0

  Rule: The last team holding cards loses
    Background:
      Given the trump suit is spades
      And the talon is empty

    @R-TEAM-3 @R-END-2 @opt:teams=2v2
    Scenario: A team whose members are all out has finished, the other loses
      Player 1 is already out; his partner, player 3, attacks with his last card.

      Given a 4-player podkidnoy game
      And player 1 is out
      And player 3 is the attacker
      And player 3 holds 7C
      And player 0 holds 9C, KD
      And player 2 holds QD, AD, KH
      When player 3 attacks with 7C
      And the defender beats 7C with 9C
      Then the game is over
      And team 0 loses
      And player 0 is the fool

    @R-TEAM-3 @R-ROLE-4 @opt:teams=2v2
    Scenario: After a take the attack may pass to the taker's partner
      Player 2 is out, so the first player after the taker who holds cards is his partner.

      Given a 4-player podkidnoy game
      And player 2 is out
      And player 0 holds 7C, KD
      And player 1 holds 9C, QH, AH
      And player 3 holds 8D, JD, 9D
      And player 0 is the attacker
      When player 0 attacks with 7C
      And the defender takes
      And player 0 passes
      Then player 1 picks up the cards of the bout
      And player 3 attacks next
      And the defender is player 0
