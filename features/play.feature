@PLAY
Feature: Moves
  Durak is not played strictly in turn. While the defender is still thinking about a card, another
  player may already add one; at any moment several players may have something they are allowed
  to do. A move is always one player doing one thing: attack, throw in a card, beat a card, take,
  pass (and, in the transfer game, transfer or show a trump). A player may only play cards from
  his own hand, and only the moves of his role: attackers attack, throw in and pass, the defender
  beats, takes or transfers. A move the rules refuse leaves the game exactly as it was, and once
  the game is over nobody moves at all.

  Background:
    Given the trump suit is spades
    And the talon is empty

  Rule: Several players may be able to act at the same moment
    @R-PLAY-1 @opt:throw_in_priority=free
    Scenario: While a card lies unbeaten, the defender and both attackers may act
      Given a 3-player podkidnoy game
      And player 0 holds 7D, KH
      And player 1 holds 9C, 8S, QD
      And player 2 holds 7H, AD
      And player 0 has attacked with 7C
      Then the legal moves are exactly:
        | who      | move             |
        | player 1 | beats 7C with 9C |
        | player 1 | beats 7C with 8S |
        | player 1 | takes            |
        | player 0 | throws in 7D     |
        | player 2 | throws in 7H     |

  Rule: Once the game is over nobody moves
    @R-PLAY-2 @R-END-2
    Scenario: The fool cannot go on playing
      Given a 2-player podkidnoy game
      And player 0 holds 7C
      And player 1 holds 9C, 6D, 7D
      When player 0 attacks with 7C
      And the defender beats 7C with 9C
      Then the game is over
      And player 1 is the fool
      And nobody may move
      When player 1 attacks with 6D
      Then the move is refused citing R-PLAY-2

  Rule: A player plays only cards from his own hand
    @R-PLAY-3
    Scenario: Attacking with a card one does not hold is refused
      Given a 2-player podkidnoy game
      And player 0 holds 7C, KD
      And player 1 holds 9C, QH
      Then player 0 may not attack with 9C
      When player 0 attacks with 9C
      Then the move is refused citing R-PLAY-3

    @R-PLAY-3
    Scenario: Beating with a card one does not hold is refused
      Given a 2-player podkidnoy game
      And player 0 holds KD, 8C
      And player 1 holds 9C, QH, 6H
      And player 0 has attacked with 7C
      When the defender beats 7C with TC
      Then the move is refused citing R-PLAY-3

  Rule: Each action belongs to a role
    @R-PLAY-4
    Scenario: An attacker may neither beat nor take
      Given a 2-player podkidnoy game
      And player 0 holds 9C, KD, 7D
      And player 1 holds TC, QH
      And player 0 has attacked with 7C
      When player 0 beats 7C with 9C
      Then the move is refused citing R-PLAY-4
      When player 0 takes
      Then the move is refused citing R-PLAY-4

    @R-PLAY-4
    Scenario: The defender may not throw in or pass
      Given a 3-player podkidnoy game
      And player 0 holds 8D, KD
      And player 1 holds 7H, QH, 8H
      And player 2 holds JD, AD, KC
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 7S
      Then the defender has no move
      When the defender throws in 7H
      Then the move is refused citing R-PLAY-4
      When the defender passes
      Then the move is refused citing R-PLAY-4

  Rule: A refused move changes nothing
    @R-PLAY-5
    Scenario: After a refused throw-in the same moves are open as before
      Given a 2-player podkidnoy game
      And player 0 holds KD, 8D
      And player 1 holds 9C, QH, 6H
      And player 0 has attacked with 7C
      When player 0 throws in KD
      Then the move is refused citing R-THROW-1
      And the legal moves are exactly:
        | who      | move             |
        | player 1 | beats 7C with 9C |
        | player 1 | takes            |
