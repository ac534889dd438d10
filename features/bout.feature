@BOUT
Feature: The end of a bout
  A bout ends in one of two ways. If every attack card is beaten and the attackers have nothing
  more to add (each has passed, or the cap is reached, or the defender has no card left to answer
  with), the defence has succeeded: the cards on the table go face down to the discard pile, out
  of play. If the defender has declared take, the bout ends once the attackers are done piling on,
  and he picks everything up. Nobody declares the end: it happens with the move that completes it.

  Rule: A successful defence closes the bout and discards the table
    @R-BOUT-1
    Scenario: Two players: beat, pass, discard
      Given a 2-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7C, KD
      And player 1 holds 9C, QH, AH, JD
      When player 0 attacks with 7C
      And the defender beats 7C with 9C
      Then the bout goes on
      When player 0 passes
      Then the bout ends and its cards are discarded
      And player 1 attacks next

    @R-BOUT-1 @opt:attack_limit=six
    Scenario: Beating the sixth card ends the bout without a pass
      Player 0 began the bout with eight cards and player 1 with ten: both have picked up cards
      in earlier bouts. A hand above six draws nothing (R-DRAW-1), so the talon still holds 16
      cards and the discard pile one beaten pair; one history that gets here is twelve bouts of
      a single card each, eleven of them taken, which makes this bout 13.

      Given a 2-player podkidnoy game
      And the trump suit is hearts
      And the talon holds 16 cards
      And this is bout 13
      And player 0 holds 8S, KS
      And player 1 holds QD, AC, AD, KC, KD
      And player 0 has attacked with 6C
      And the defender has beaten 6C with 7C
      And player 0 has thrown in 7D
      And the defender has beaten 7D with 8D
      And player 0 has thrown in 8C
      And the defender has beaten 8C with 9C
      And player 0 has thrown in 9D
      And the defender has beaten 9D with TD
      And player 0 has thrown in TC
      And the defender has beaten TC with JC
      And player 0 has thrown in JD
      When the defender beats JD with QD
      Then the bout ends and its cards are discarded

    @R-BOUT-1 @R-OUT-1 @opt:attack_limit=hand
    Scenario: An attacker who has played his last card is no longer asked to pass
      The talon still holds cards, so player 0 is not out: he draws first after the bout. He
      began the bout with six, as every hand does while the talon lasts (R-DRAW-1), and has led
      five of them; with no cap (attack_limit hand) and the defender holding cards to spare (he
      has picked up cards in an earlier bout), only the attacker's empty hand closes the bout.

      Given a 2-player podkidnoy game
      And the trump suit is spades
      And the talon, top first, is 6D, 7D, 8D, 9D, TD, JD, QD, AS
      And player 0 holds 7C
      And player 1 holds 9C, KC, KH
      And player 0 has attacked with 6C
      And the defender has beaten 6C with 8C
      And player 0 has thrown in 8H
      And the defender has beaten 8H with TH
      And player 0 has thrown in 6H
      And the defender has beaten 6H with 7H
      And player 0 has thrown in TC
      And the defender has beaten TC with 6S
      And player 0 has thrown in 8S
      And the defender has beaten 8S with 9S
      When player 0 throws in 7C
      And the defender beats 7C with 9C
      Then the bout ends and its cards are discarded
      And player 0 holds 6D, 7D, 8D, 9D, TD, JD
      And player 1 holds KC, KH, QD, AS
      And the talon is empty
      And player 0 is not out
      And player 1 attacks next

    @R-BOUT-1 @R-THROW-4 @R-THROW-6 @R-DRAW-2 @R-ROLE-3 @opt:throw_in_priority=circle
    Scenario: A three-player bout, step by step
      Player 0 attacks player 1; spades are trumps. The right to add cards starts with the main
      attacker, passes to player 2 when player 0 passes, and comes back to player 0 when the
      defender beats the card player 2 added. Each began the bout with six (the talon lasts,
      R-DRAW-1), so each draws what he played: player 0 one card, player 2 one, the defender two.

      Given a 3-player podkidnoy game
      And the trump suit is spades
      And the talon, top first, is 6D, 7D, 8D, 9D, TD, JD, QD, AS
      And player 0 holds 7H, 7C, KD, AD, 6C, TC
      And player 1 holds 9H, JC, QS, 8C, 6H, 8H
      And player 2 holds 9C, KH, AH, QH, QC, KC
      Then only player 0 may move
      When player 0 attacks with 7H
      Then the defender may beat 7H with 9H
      And the defender may take
      And player 0 may throw in 7C
      And player 2 has no move
      When the defender beats 7H with 9H
      Then player 0 may only throw in 7C or pass
      When player 0 passes
      Then player 2 may throw in 9C
      When player 2 throws in 9C
      Then player 0 has no move
      And player 2 has no move
      And the defender may beat 9C with JC
      When the defender beats 9C with JC
      Then player 0 may throw in 7C
      And player 2 has no move
      When player 0 passes
      And player 2 passes
      Then the bout ends and its cards are discarded
      And player 0 holds 7C, KD, AD, 6C, TC, 6D
      And player 2 holds KH, AH, QH, QC, KC, 7D
      And player 1 holds QS, 8C, 6H, 8H, 8D, 9D
      And the talon holds 4 cards
      And player 1 attacks next
      And the defender is player 2

  Rule: A take closes the bout once the attackers are done
    @R-BOUT-2 @opt:throw_in_priority=circle @opt:pile_on=allowed
    Scenario: Every attacker passes, then the defender picks up
      Given a 3-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7D, KD
      And player 1 holds 9C, QH, AH
      And player 2 holds 8D, JD, 9D
      When player 0 attacks with 7D
      And the defender takes
      Then the bout goes on
      And the defender is taking
      When player 0 passes
      Then the bout goes on
      When player 2 passes
      Then player 1 picks up the cards of the bout
      And player 2 attacks next

    @R-BOUT-2 @opt:pile_on=allowed
    Scenario: A take that already fills the defender's hand closes the bout at once
      Given a 2-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7D, KD
      And player 1 holds 8C
      And player 0 has attacked with 7C
      When the defender takes
      Then player 1 picks up the cards of the bout
      And player 1 holds 8C, 7C

  Rule: A defender who beats with his last card ends the bout at once
    @R-BOUT-3 @opt:attack_limit=hand
    Scenario: No more cards can come at a defender with an empty hand
      The attackers still hold sevens, but the bout is over the moment the defender lays his last
      card; then everybody draws, the defender last. The defender began the bout with six, as
      every hand does while the talon lasts (R-DRAW-1), so his last card answers the sixth
      attack card; with no cap (attack_limit hand) only his empty hand closes the bout.

      Given a 3-player podkidnoy game
      And the trump suit is spades
      And the talon holds 12 cards
      And player 0 holds 7D
      And player 1 holds 8S
      And player 2 holds 7H, KH, AH, QH, JH
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      And player 0 has thrown in 9D
      And the defender has beaten 9D with TD
      And player 0 has thrown in TC
      And the defender has beaten TC with JC
      And player 0 has thrown in JD
      And the defender has beaten JD with QD
      And player 0 has thrown in QC
      And the defender has beaten QC with KC
      And player 0 has passed
      And player 2 has thrown in 9H
      When the defender beats 9H with 8S
      Then the bout ends and its cards are discarded
      And player 0 holds 6 cards
      And player 2 holds 6 cards
      And player 1 holds 6 cards
      And the talon is empty
      And player 1 attacks next
