@MATCH
Feature: The next game
  Durak is played game after game. The fool of one game deals the next. Most tables then let the
  player on the fool's left attack first, so the fool is attacked last; others play "under the
  fool": the player on his right attacks, and the fool must defend straight away. A drawn game
  has no fool: the same dealer deals again and the next game starts like a first game, with the
  lowest trump.

  Rule: The fool deals the next game
    @R-MATCH-1
    Scenario: Player 2 was the fool, so player 2 deals
      Given a 4-player podkidnoy game
      And the previous game was dealt by player 0 and player 2 was the fool
      When the game is dealt
      Then the dealer is player 2

  Rule: Who attacks first in the next game
    @R-MATCH-2
    Scenario Outline: After player 2 was the fool, next_game <next_game>
      Player 0 is dealt the lowest trump, which would decide a first game but not this one.

      Given a 4-player podkidnoy game
      And the option next_game is <next_game>
      And the previous game was dealt by player 0 and player 2 was the fool
      And the deal turns up KH as the trump card
      And the deal gives player 0 6H 7C 8C 9C TC JC
      When the game is dealt
      Then player <attacker> attacks first
      And player <defender> defends first

      Examples:
        | next_game  | attacker | defender |
        | fool_left  | 3        | 0        |
        | fool_right | 1        | 2        |

  Rule: After a draw the next game starts afresh
    @R-MATCH-3 @opt:first_attacker=lowest_trump
    Scenario: A drawn game: the same dealer deals and the lowest trump leads
      Given a 3-player podkidnoy game
      And the previous game was dealt by player 1 and ended in a draw
      And the deal turns up KH as the trump card
      And the deal gives player 0 6H 7C 8C 9C TC JC
      When the game is dealt
      Then the dealer is player 1
      And player 0 attacks first
